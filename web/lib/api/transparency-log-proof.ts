// GET /oap/transparency-log/{index}/proof: the links from an entry to the head, and the head hash.
import { UncheckedLogProof } from '@shared/contract/negotiation';
import { getJson } from './http';
import { oapBase } from './oap-base';

export type { UncheckedLogProof as LogProof } from '@shared/contract/negotiation';

/** `source`: the external negotiation service whose log holds the entry; omitted for ours. */
export const fetchLogProof = (index: number, signal?: AbortSignal, source?: string) =>
  getJson(`${oapBase(source)}/oap/transparency-log/${index}/proof`, UncheckedLogProof, signal ? { signal } : undefined);
