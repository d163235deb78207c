import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { signAgreement } from './agreement';
import { NegotiationErrorCode as Code } from './error-codes';
import { toTimestamp } from './primitives';
import {
  appendEntry,
  entryHash,
  GENESIS_HASH,
  linkOf,
  redactEntry,
  updateEntrySignatures,
  verifyChain,
} from './transparency-log';
import { alice, buildLog, MINUTE, signedAgreement, T0, tamper } from './test-support/fixtures';

const failure = (r: ReturnType<typeof verifyChain>) =>
  r.ok ? 'ok' : { code: r.error.code, index: r.error.details?.['index'] };

describe('transparency log (§3.5 "appended to the Transparency Log")', () => {
  it('chains entries from a zero genesis hash; the entry hash covers the link', () => {
    const log = buildLog([
      signedAgreement(1),
      signedAgreement(2, { confidentiality: 'restricted' }),
      signedAgreement(3),
    ]);
    expect(log.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(log[0]?.prev_hash).toBe(GENESIS_HASH);
    expect(log[1]?.prev_hash).toBe(log[0]?.entry_hash);
    expect(log[2]?.entry_hash).toBe(entryHash(linkOf(log[2]!)));
    expect(log[1]?.integrity_hash).toBe(signedAgreement(2, { confidentiality: 'restricted' }).agreement_hash);
    expect(log[1]?.timestamp).toBe(toTimestamp(T0 + MINUTE));
    expect(unwrap(verifyChain(log))).toEqual({ size: 3, head_hash: log[2]?.entry_hash });
  });

  it('an empty log verifies to the genesis hash', () => {
    expect(unwrap(verifyChain([]))).toEqual({ size: 0, head_hash: GENESIS_HASH });
  });

  it('append refuses a tampered agreement, a material redaction and a time before the head', () => {
    const a = signedAgreement(1);
    const head = unwrap(appendEntry(null, { agreement: a, now: T0 }));
    const code = (r: ReturnType<typeof appendEntry>) => (r.ok ? 'ok' : r.error.code);
    expect(code(appendEntry(head, { agreement: { ...a, terms: {} }, now: T0 }))).toBe(Code.AGREEMENT_HASH_MISMATCH);
    expect(code(appendEntry(head, { agreement: a, now: T0, redact: ['/effective_from'] }))).toBe(
      Code.MATERIAL_FIELD_REDACTED,
    );
    expect(code(appendEntry(head, { agreement: a, now: T0 - 1 }))).toBe(Code.LOG_TIMESTAMP_REGRESSION);
    // What would later break verifyChain is refused at the door.
    const badSig = { ...a, signatures: { ...a.signatures, [alice.did]: tamper(a.signatures[alice.did]!) } };
    expect(code(appendEntry(head, { agreement: badSig, now: T0 }))).toBe(Code.AGREEMENT_SIGNATURE_INVALID);
    expect(code(appendEntry(head, { agreement: { ...a, signatures: {} }, now: T0 }))).toBe(
      Code.AGREEMENT_SIGNATURE_INVALID,
    );
    expect(code(appendEntry(head, { agreement: a, now: T0 }))).toBe('ok');
  });

  it('reports the first broken entry by index and code', () => {
    const log = buildLog([signedAgreement(1), signedAgreement(2), signedAgreement(3)]);
    const at = (i: number, e: unknown) => log.map((x, k) => (k === i ? e : x));
    expect(failure(verifyChain(at(1, { ...log[1], index: 7 })))).toEqual({ code: Code.LOG_INDEX_MISMATCH, index: 1 });
    expect(failure(verifyChain(at(2, { ...log[2], prev_hash: log[0]!.entry_hash })))).toEqual({
      code: Code.LOG_PREV_HASH_MISMATCH,
      index: 2,
    });
    expect(failure(verifyChain(at(0, { ...log[0], timestamp: toTimestamp(T0 + 1) })))).toEqual({
      code: Code.LOG_ENTRY_HASH_MISMATCH,
      index: 0,
    });
    expect(failure(verifyChain(at(1, { ...log[1], kind: 'payment' })))).toEqual({
      code: Code.LOG_ENTRY_INVALID,
      index: 1,
    });
    expect(failure(verifyChain(at(1, { ...log[1], public: log[2]!.public })))).toEqual({
      code: Code.INTEGRITY_MISMATCH,
      index: 1,
    });
    expect(failure(verifyChain([log[1], log[2]]))).toEqual({ code: Code.LOG_INDEX_MISMATCH, index: 0 });
    expect(failure(verifyChain([log[0], log[2]]))).toEqual({ code: Code.LOG_INDEX_MISMATCH, index: 1 });
  });

  it('refuses time running backwards even when every hash is recomputed', () => {
    const [e0, e1] = buildLog([signedAgreement(1), signedAgreement(2)]);
    const link = { ...linkOf(e1!), timestamp: toTimestamp(T0 - MINUTE) };
    const forged = { ...e1!, ...link, entry_hash: entryHash(link) };
    expect(failure(verifyChain([e0, forged]))).toEqual({ code: Code.LOG_TIMESTAMP_REGRESSION, index: 1 });
  });

  it('redacting a logged entry later keeps its entry hash and the chain (§6)', () => {
    const log = buildLog([signedAgreement(1), signedAgreement(2)]);
    const before = unwrap(verifyChain(log));
    const redacted = unwrap(redactEntry(log[0]!, ['/terms/attendee_note', '/terms/slot']));
    expect(redacted.entry_hash).toBe(log[0]?.entry_hash);
    expect(unwrap(verifyChain([redacted, log[1]]))).toEqual(before);
    const refused = redactEntry(log[0]!, ['/agreement_id']);
    expect(refused.ok ? 'ok' : refused.error.code).toBe(Code.MATERIAL_FIELD_REDACTED);
  });

  it('publishes a later co-signature without touching the chain', () => {
    const half = signedAgreement(4, { cosigned: false });
    const [entry] = buildLog([half]);
    expect(Object.keys(entry!.public.signatures)).toHaveLength(1);
    const full = { ...half, signatures: { ...half.signatures, [alice.did]: signAgreement(half, alice.secretKey) } };
    const updated = unwrap(updateEntrySignatures(entry!, full));
    expect(Object.keys(updated.public.signatures)).toHaveLength(2);
    expect(unwrap(verifyChain([updated])).head_hash).toBe(entry?.entry_hash);
    const other = updateEntrySignatures(entry!, signedAgreement(5));
    expect(other.ok ? 'ok' : other.error.code).toBe(Code.INTEGRITY_MISMATCH);
    const broken = updateEntrySignatures(entry!, { ...full, signatures: { ...full.signatures, [alice.did]: 'x' } });
    expect(broken.ok ? 'ok' : broken.error.code).toBe(Code.AGREEMENT_INVALID);
    const forged = updateEntrySignatures(entry!, {
      ...full,
      signatures: { ...full.signatures, [alice.did]: tamper(signAgreement(half, alice.secretKey)) },
    });
    expect(forged.ok ? 'ok' : forged.error.code).toBe(Code.AGREEMENT_SIGNATURE_INVALID);
  });
});
