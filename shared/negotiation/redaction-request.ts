// A party's signed request to hide non-material fields of a public log entry (RFC 0002 §6,
// POST /oap/transparency-log/{index}/redact). The RFC gives no body; ours is a signed document
// like the others (docs/decisions-negotiation.md §21): it names the entry by index *and*
// agreement_id, so a request made for one entry cannot be replayed against another.
import { z } from 'zod';
import { signDocument, type DidSignatureCheck } from '../crypto/signed-document';
import { fail, type Result } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { AgreementId, PartyDid, Signature, Timestamp } from './primitives';
import { redactEntry, type LogEntry } from './transparency-log';
import { checkClock, parseDocument, verifySignature } from './verify-document';

export const RedactionRequest = z.strictObject({
  type: z.literal('redact'),
  index: z.int().min(0),
  agreement_id: AgreementId,
  /** RFC 6901 pointers into the agreement, e.g. `/terms/price_eur`. */
  pointers: z.array(z.string().startsWith('/').max(512)).min(1).max(256),
  by: PartyDid,
  at: Timestamp,
  signature: Signature,
});
export type RedactionRequest = z.infer<typeof RedactionRequest>;

export const signRedactionRequest = (
  body: Omit<RedactionRequest, 'signature'>,
  secretKey: Uint8Array,
): RedactionRequest => signDocument(body, 'signature', secretKey);

export interface RedactionContext {
  readonly now: number;
  readonly clockSkewMs: number;
  readonly verify?: DidSignatureCheck;
}

/** The entry with more fields hidden, or why not; the entry's hash and the chain are untouched. */
export function applyRedactionRequest(entry: LogEntry, input: unknown, ctx: RedactionContext): Result<LogEntry> {
  const parsed = parseDocument(RedactionRequest, input, 'redaction request');
  if (!parsed.ok) return parsed;
  const r = parsed.value;
  if (r.index !== entry.index)
    return fail(Code.LOG_INDEX_MISMATCH, `The request names entry ${r.index}, not ${entry.index}.`);
  const disclosed = (pointer: string): unknown => {
    const d = entry.public.disclosures[pointer];
    return d !== undefined && 'value' in d ? d.value : undefined;
  };
  if (disclosed('/agreement_id') !== r.agreement_id)
    return fail(Code.LOG_INDEX_MISMATCH, 'The request names another agreement than this entry logs.');
  const parties = disclosed('/parties');
  if (!Array.isArray(parties) || !parties.includes(r.by))
    return fail(Code.NOT_A_PARTY, `${r.by} is not a party to this agreement.`);
  const signed = verifySignature(r, r.by, 'redaction request', ctx.verify);
  if (!signed.ok) return signed;
  const clock = checkClock(r.at, ctx.now, ctx.clockSkewMs);
  if (!clock.ok) return clock;
  return redactEntry(entry, r.pointers);
}
