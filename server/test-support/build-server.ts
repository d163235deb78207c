// Vitest global setup of the integration project: the tests that start the server as a child
// process run its compiled bundle (compiled-entry.ts), so it is made current once, before any file.
import { ensureServerBuilt } from './compiled-entry';

export default function setup(): void {
  ensureServerBuilt();
}
