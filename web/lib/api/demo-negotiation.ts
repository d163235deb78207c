// POST /api/demo/negotiation (facilitator): the guided demo's step 2 — two demo agents open a
// fresh pricing negotiation and take it to a co-signed agreement (server/routes/demo.ts).
import { DemoStarted } from '@shared/contract/console';
import { postJson } from './http';

export type { DemoStarted as StartedNegotiation } from '@shared/contract/console';

export const startDemoNegotiation = () => postJson('/api/demo/negotiation', {}, DemoStarted);
