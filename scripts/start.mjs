// `npm start`: builds the console and the server only if their sources changed, then runs the
// compiled server in this same process (decisions-server.md §49).
import { ensureBuilt } from './build/ensure-built.mjs';

ensureBuilt(['web', 'server']);
await import('../dist/server/main.js');
