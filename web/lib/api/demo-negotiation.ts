// POST /api/demo/negotiation (facilitator): the guided demo's step 2 — the demo seller opens a
// fresh pricing negotiation with this operator and makes its offer (server/routes/demo.ts).
import { DemoStarted } from '@shared/contract/console';
import { postJson } from './http';

export type { DemoStarted as StartedNegotiation } from '@shared/contract/console';

export const startDemoNegotiation = () => postJson('/api/demo/negotiation', {}, DemoStarted);
