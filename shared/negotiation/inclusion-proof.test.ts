import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { inclusionProof, verifyInclusion } from './inclusion-proof';
import { toTimestamp } from './primitives';
import { entryHash, type LogEntry } from './transparency-log';
import { buildLog, signedAgreement, T0 } from './test-support/fixtures';

const log: LogEntry[] = buildLog([1, 2, 3, 4].map((n) => signedAgreement(n)));
const head = log.at(-1)!.entry_hash;
const code = (r: ReturnType<typeof verifyInclusion>) => (r.ok ? 'ok' : r.error.code);

describe('inclusion proofs (decision: proof format)', () => {
  it('proves every entry against the head hash, naming the logged agreement hash', () => {
    for (const entry of log) {
      const proof = unwrap(inclusionProof(log, entry.index));
      expect(proof.links).toHaveLength(log.length - entry.index);
      expect(unwrap(verifyInclusion(proof, head))).toEqual({
        index: entry.index,
        integrity_hash: entry.integrity_hash,
        size: log.length,
      });
    }
  });

  it('a proof survives JSON transport and carries no public view', () => {
    const proof = JSON.parse(JSON.stringify(unwrap(inclusionProof(log, 1))));
    expect(Object.keys(proof.links[0])).not.toContain('public');
    expect(code(verifyInclusion(proof, head))).toBe('ok');
  });

  it('refuses another head, a changed link, a gap, time going back, malformed proofs', () => {
    const proof = unwrap(inclusionProof(log, 1));
    expect(code(verifyInclusion(proof, log[2]!.entry_hash))).toBe(Code.LOG_HEAD_MISMATCH);
    const swapped = {
      ...proof,
      links: [{ ...proof.links[0]!, integrity_hash: log[0]!.integrity_hash }, ...proof.links.slice(1)],
    };
    expect(code(verifyInclusion(swapped, head))).toBe(Code.LOG_PREV_HASH_MISMATCH);
    const lastOnly = { ...proof, links: [{ ...proof.links.at(-1)!, integrity_hash: log[0]!.integrity_hash }] };
    expect(code(verifyInclusion({ index: 3, links: lastOnly.links }, head))).toBe(Code.LOG_HEAD_MISMATCH);
    expect(code(verifyInclusion({ ...proof, links: [proof.links[0], proof.links[2]] }, head))).toBe(
      Code.LOG_INDEX_MISMATCH,
    );
    expect(code(verifyInclusion({ ...proof, index: 0 }, head))).toBe(Code.LOG_INDEX_MISMATCH);
    const l0 = { ...proof.links[0]!, timestamp: toTimestamp(T0 + 10 * 60_000) };
    const l1 = { ...proof.links[1]!, prev_hash: entryHash(l0) };
    expect(code(verifyInclusion({ index: 1, links: [l0, l1] }, entryHash(l1)))).toBe(Code.LOG_TIMESTAMP_REGRESSION);
    expect(code(verifyInclusion({ index: 1, links: [] }, head))).toBe(Code.LOG_ENTRY_INVALID);
    expect(code(verifyInclusion('proof', head))).toBe(Code.LOG_ENTRY_INVALID);
  });

  it('refuses to prove an index the log does not have', () => {
    for (const i of [-1, 4, 1.5]) {
      const r = inclusionProof(log, i);
      expect(r.ok ? 'ok' : r.error.code).toBe(Code.LOG_INDEX_OUT_OF_RANGE);
    }
  });
});
