// `npm run cli -- <command>`: the compiled operator CLI, the server bundle rebuilt first if stale.
import { ensureBuilt } from './build/ensure-built.mjs';

ensureBuilt(['server']);
await import('../dist/server/cli.js');
