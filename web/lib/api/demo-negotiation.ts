// POST /api/demo/negotiation (facilitator): the guided demo's step 2 — two demo agents open a
// fresh pricing negotiation and take it to a co-signed agreement (server/routes/demo.ts).
import { z } from 'zod';
import { postJson } from './http';

const Started = z.object({ negotiation_id: z.string(), names: z.record(z.string(), z.string()) });
export type StartedNegotiation = z.infer<typeof Started>;

export const startDemoNegotiation = (): Promise<StartedNegotiation> => postJson('/api/demo/negotiation', {}, Started);
