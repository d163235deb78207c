// The append-only, hash-chained transparency log agreements go to (RFC 0002 §3.5). Each
// entry's hash covers its *link* (index, prev_hash, timestamp, kind, integrity_hash), not its
// public view: the integrity hash already commits to every field, so a party can redact a
// field later (§6) without rewriting the chain, and any other change to a view fails
// `verifyView` against that same integrity hash.
import { z } from 'zod';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { canonicalBytes } from '../crypto/jcs';
import { sha256Hex } from '../crypto/sha256';
import { fail, ok, type Result } from '../errors';
import { verifyAgreement, type Agreement } from './agreement';
import { NegotiationErrorCode as Code } from './error-codes';
import { NEGOTIATION_ID_POINTER } from './field-commitments';
import { HashString, Timestamp, toTimestamp } from './primitives';
import { PublicView, publicView, redactView, verifyView } from './public-view';

export const GENESIS_HASH: HashString = `sha256-${'0'.repeat(64)}`;

export const LogLink = z.strictObject({
  index: z.int().min(0),
  prev_hash: HashString,
  timestamp: Timestamp,
  kind: z.literal('agreement'),
  /** The agreement_hash of the logged agreement. */
  integrity_hash: HashString,
});
export type LogLink = z.infer<typeof LogLink>;

export const LogEntry = z.strictObject({ ...LogLink.shape, entry_hash: HashString, public: PublicView });
export type LogEntry = z.infer<typeof LogEntry>;

export type LogHead = Pick<LogEntry, 'index' | 'entry_hash' | 'timestamp'>;

export const linkOf = (e: LogLink): LogLink => ({
  index: e.index,
  prev_hash: e.prev_hash,
  timestamp: e.timestamp,
  kind: e.kind,
  integrity_hash: e.integrity_hash,
});

/** `sha256-` + hex SHA-256 of the JCS link. */
export const entryHash = (link: LogLink): HashString => `sha256-${sha256Hex(canonicalBytes(linkOf(link)))}`;

export interface AppendInput {
  readonly agreement: Agreement;
  readonly now: number;
  /** JSON Pointers of non-material fields to hide; defaults to `defaultRedactions` (§3.7). */
  readonly redact?: readonly string[];
  readonly verify?: DidSignatureCheck;
}

/** The entry that follows `head` (null for an empty log). The store persists it; nothing here mutates. */
export function appendEntry(head: LogHead | null, input: AppendInput): Result<LogEntry> {
  const signed = checkLoggable(input.agreement, input.verify);
  if (!signed.ok) return signed;
  const view = input.redact === undefined ? publicView(input.agreement) : publicView(input.agreement, input.redact);
  if (!view.ok) return view;
  const timestamp = toTimestamp(input.now);
  if (head !== null && Date.parse(timestamp) < Date.parse(head.timestamp)) {
    return fail(Code.LOG_TIMESTAMP_REGRESSION, 'A log entry cannot predate the head.', {
      head: head.timestamp,
      timestamp,
    });
  }
  const link: LogLink = {
    index: head === null ? 0 : head.index + 1,
    prev_hash: head === null ? GENESIS_HASH : head.entry_hash,
    timestamp,
    kind: 'agreement',
    integrity_hash: input.agreement.agreement_hash,
  };
  return ok({ ...link, entry_hash: entryHash(link), public: view.value });
}

/** Hides more fields of a logged entry; its entry_hash, and so the chain, stay as they were. */
export function redactEntry(entry: LogEntry, redact: readonly string[]): Result<LogEntry> {
  const view = redactView(entry.public, redact);
  return view.ok ? ok({ ...entry, public: view.value }) : view;
}

/**
 * What the log serves of an entry: one for a non-`public` agreement shows only the commitment to
 * its negotiation id, whatever it was stored with (entries appended before ids were committed
 * are concealed here, on the way out). Redaction keeps the entry hash, so the chain verifies.
 */
export function publishedEntry(entry: LogEntry): LogEntry {
  const metadata = entry.public.disclosures['/metadata'];
  const id = entry.public.disclosures[NEGOTIATION_ID_POINTER];
  const confidentiality =
    metadata !== undefined && 'value' in metadata
      ? (metadata.value as { confidentiality?: unknown } | null)?.confidentiality
      : undefined;
  if (confidentiality === 'public' || id === undefined || !('value' in id)) return entry;
  const concealed = redactEntry(entry, [NEGOTIATION_ID_POINTER]);
  return concealed.ok ? concealed.value : entry;
}

/** Publishes signatures added after the entry was appended (the proposer's co-signature). */
export function updateEntrySignatures(
  entry: LogEntry,
  agreement: Agreement,
  check?: DidSignatureCheck,
): Result<LogEntry> {
  if (agreement.agreement_hash !== entry.integrity_hash) {
    return fail(Code.INTEGRITY_MISMATCH, 'That agreement is not the one this entry logs.');
  }
  const signed = checkLoggable(agreement, check);
  if (!signed.ok) return signed;
  return ok({ ...entry, public: { ...entry.public, signatures: { ...agreement.signatures } } });
}

// What goes into the log must verify there later: the hash, no failing signature, and at
// least one party's signature (an acceptance always brings the accepter's).
function checkLoggable(agreement: Agreement, check?: DidSignatureCheck): Result<true> {
  const verdict = verifyAgreement(agreement, check);
  if (!verdict.ok) return verdict;
  const statuses = Object.entries(verdict.value.signatures);
  const invalid = statuses.filter(([, status]) => status === 'invalid').map(([party]) => party);
  if (invalid.length > 0)
    return fail(Code.AGREEMENT_SIGNATURE_INVALID, 'The agreement carries a signature that does not verify.', {
      parties: invalid,
    });
  if (!statuses.some(([, status]) => status === 'valid'))
    return fail(Code.AGREEMENT_SIGNATURE_INVALID, 'An agreement is logged signed by at least one party.');
  return ok(true);
}

export interface ChainVerdict {
  readonly size: number;
  readonly head_hash: HashString;
}

const broken = (index: number, code: string, message: string, details: Record<string, unknown> = {}) =>
  fail(code, `Entry ${index}: ${message}`, { index, ...details });

/**
 * Verifies a whole log from genesis: schema, positions, links, hashes, time order, and each
 * public view against its integrity hash. On failure `details.index` is the first broken entry.
 */
export function verifyChain(entries: readonly unknown[], check?: DidSignatureCheck): Result<ChainVerdict> {
  let prevHash: HashString = GENESIS_HASH;
  let prevTime = -Infinity;
  for (let i = 0; i < entries.length; i++) {
    const parsed = LogEntry.safeParse(entries[i]);
    if (!parsed.success) return broken(i, Code.LOG_ENTRY_INVALID, 'not a log entry.', { issues: parsed.error.issues });
    const e = parsed.data;
    if (e.index !== i) return broken(i, Code.LOG_INDEX_MISMATCH, `index is ${e.index}.`);
    if (e.prev_hash !== prevHash)
      return broken(i, Code.LOG_PREV_HASH_MISMATCH, 'prev_hash does not name the previous entry.');
    if (e.entry_hash !== entryHash(e))
      return broken(i, Code.LOG_ENTRY_HASH_MISMATCH, 'entry_hash does not match the entry.');
    const time = Date.parse(e.timestamp);
    if (time < prevTime)
      return broken(i, Code.LOG_TIMESTAMP_REGRESSION, 'timestamp is earlier than the previous entry.');
    const view = verifyView(e.public, e.integrity_hash, check);
    if (!view.ok) return broken(i, view.error.code, view.error.message, { ...view.error.details });
    prevHash = e.entry_hash;
    prevTime = time;
  }
  return ok({ size: entries.length, head_hash: prevHash });
}
