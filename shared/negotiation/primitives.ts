// Wire-level building blocks shared by every RFC 0002 document. Formats are strict so that a
// document has one accepted spelling: the signature covers exactly what the schema admits.
import { z } from 'zod';
import { isDidKey, type DidKey } from '../crypto/did-key';

/** RFC 0002 §3.1 identifies a Party by a DID; this project's parties are Ed25519 did:key. */
export const PartyDid = z.custom<DidKey>(isDidKey, { message: 'Expected an Ed25519 did:key identifier.' });
export type PartyDid = DidKey;

// §3.4 shows ULIDs behind a type prefix; any 1–64 alphanumerics are accepted (ids.ts mints ULIDs).
export const NegotiationId = z.string().regex(/^neg_[0-9A-Za-z]{1,64}$/, 'Expected neg_<alphanumerics>.');
export const ProposalId = z.string().regex(/^prp_[0-9A-Za-z]{1,64}$/, 'Expected prp_<alphanumerics>.');
export const AgreementId = z.string().regex(/^agr_[0-9A-Za-z]{1,64}$/, 'Expected agr_<alphanumerics>.');

/** RFC 3339 in UTC with `Z`, as §3.4's `valid_until`; calendar-checked (no 30 February). */
export const Timestamp = z.iso.datetime({ message: 'Expected an RFC 3339 UTC timestamp ending in Z.' });

export const Category = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'Expected a lowercase category name.');

/** Ed25519 signature, 64 bytes as unpadded base64url (86 characters). */
export const Signature = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'Expected a 64-byte unpadded base64url signature.');

/** `sha256-` and 64 lowercase hex digits (decisions: hash encoding). */
export const HashString = z.string().regex(/^sha256-[0-9a-f]{64}$/, 'Expected sha256-<64 lowercase hex>.');
export type HashString = z.infer<typeof HashString>;

/** A bare SHA-256 digest in lowercase hex, as field commitments carry it. */
export const HexDigest = z.string().regex(/^[0-9a-f]{64}$/, 'Expected 64 lowercase hex digits.');

/** 32 random bytes, unpadded base64url: the seed the per-field salts derive from. */
export const SaltSeed = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a 32-byte unpadded base64url seed.');

/** 16 bytes, unpadded base64url: one field's salt. */
export const Salt = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Expected a 16-byte unpadded base64url salt.');

/** Terms are a JSON object (§3.4); values are any JSON, checked finite so JCS can encode them. */
export const Terms = z.record(z.string(), z.json());
export type Terms = z.infer<typeof Terms>;

export const toTimestamp = (ms: number): string => new Date(ms).toISOString();
export const timeOf = (timestamp: string): number => Date.parse(timestamp);
