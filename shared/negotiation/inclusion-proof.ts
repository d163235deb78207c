// Inclusion proofs for the hash chain: the links from the proven entry to the head. Anyone
// holding a head hash they trust (published by the Tool, gossiped, pinned by a party) can
// check in a browser, with SHA-256 and JCS alone, that the entry is in that log. The proof grows
// with the entries after it (decisions: proof format).
import { z } from 'zod';
import { fail, ok, type Result } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import type { HashString } from './primitives';
import { entryHash, LogLink, linkOf, type LogEntry } from './transparency-log';

export const InclusionProof = z.strictObject({
  index: z.int().min(0),
  /** links[0] is the proven entry's link; each next link names the previous one's hash. */
  links: z.array(LogLink).min(1),
});
export type InclusionProof = z.infer<typeof InclusionProof>;

export function inclusionProof(entries: readonly LogEntry[], index: number): Result<InclusionProof> {
  if (!Number.isInteger(index) || index < 0 || index >= entries.length) {
    return fail(Code.LOG_INDEX_OUT_OF_RANGE, `The log has no entry ${index}.`, { size: entries.length });
  }
  return ok({ index, links: entries.slice(index).map(linkOf) });
}

export interface InclusionVerdict {
  readonly index: number;
  /** The agreement_hash the proven entry logs: compare it with the agreement in hand. */
  readonly integrity_hash: HashString;
  /** Entries in the log the head hash describes. */
  readonly size: number;
}

export function verifyInclusion(input: unknown, headHash: string): Result<InclusionVerdict> {
  const parsed = InclusionProof.safeParse(input);
  if (!parsed.success) return fail(Code.LOG_ENTRY_INVALID, 'Not an inclusion proof.', { issues: parsed.error.issues });
  const { index, links } = parsed.data;
  let hash: HashString | null = null;
  let time = -Infinity;
  for (const [k, link] of links.entries()) {
    if (link.index !== index + k)
      return fail(Code.LOG_INDEX_MISMATCH, 'Proof links are not consecutive entries.', { at: k });
    if (hash !== null && link.prev_hash !== hash)
      return fail(Code.LOG_PREV_HASH_MISMATCH, 'Proof links do not chain.', { at: k });
    if (Date.parse(link.timestamp) < time)
      return fail(Code.LOG_TIMESTAMP_REGRESSION, 'Proof links go back in time.', { at: k });
    hash = entryHash(link);
    time = Date.parse(link.timestamp);
  }
  if (hash !== headHash) return fail(Code.LOG_HEAD_MISMATCH, 'The proof does not end at the given head hash.');
  const first = links[0] as LogLink;
  return ok({ index, integrity_hash: first.integrity_hash, size: index + links.length });
}
