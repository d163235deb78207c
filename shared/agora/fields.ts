// Field schemas the envelope and its payloads share.
import { z } from 'zod';
import { isDidKey } from '../crypto/did-key';

/**
 * Message, thread, request and offer ids. The spec only says `id` "serves as nonce (must be
 * unique)"; we also bound it (printable ASCII, no spaces, at most 256 characters) because ids
 * are stored in the replay memory, used as keys and echoed in URLs.
 */
export const Identifier = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/**
 * ISO 8601 in UTC with a `Z` suffix and seconds (`2026-02-02T15:30:00Z`, fractions allowed).
 * Offsets, lowercase `z`, missing seconds and impossible dates (Feb 30) are refused.
 */
export const UtcTimestamp = z.iso.datetime();

/** Agora v1.0 Appendix A: agents are Ed25519 did:key identifiers, nothing else. */
export const DidKeyId = z.string().refine(isDidKey, 'must be an Ed25519 did:key (did:key:z6Mk…)');

/** Epoch milliseconds of a string that {@link UtcTimestamp} accepted. */
export function timestampMs(timestamp: string): number {
  const ms = Date.parse(timestamp);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a timestamp: ${timestamp}`);
  return ms;
}

/** The canonical text form we write: `toISOString()`, always UTC with milliseconds. */
export const formatTimestamp = (ms: number): string => new Date(ms).toISOString();
