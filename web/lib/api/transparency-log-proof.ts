// GET /oap/transparency-log/{index}/proof: the links from an entry to the head, and the head hash.
import { z } from 'zod';
import { getJson } from './http';
import { oapBase } from './oap-base';

const Proof = z.object({ proof: z.unknown(), head_hash: z.string(), size: z.number() });
export type LogProof = z.infer<typeof Proof>;

/** `source`: the external negotiation service whose log holds the entry; omitted for ours. */
export const fetchLogProof = (index: number, signal?: AbortSignal, source?: string) =>
  getJson(`${oapBase(source)}/oap/transparency-log/${index}/proof`, Proof, signal ? { signal } : undefined);
