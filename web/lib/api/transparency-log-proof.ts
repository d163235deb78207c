// GET /oap/transparency-log/{index}/proof: the links from an entry to the head, and the head hash.
import { z } from 'zod';
import { getJson } from './http';

const Proof = z.object({ proof: z.unknown(), head_hash: z.string(), size: z.number() });
export type LogProof = z.infer<typeof Proof>;

export const fetchLogProof = (index: number, signal?: AbortSignal) =>
  getJson(`/oap/transparency-log/${index}/proof`, Proof, signal ? { signal } : undefined);
