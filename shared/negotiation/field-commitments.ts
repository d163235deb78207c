// Salted per-field commitments (RFC 0002 §6): the agreement hash commits to one digest per
// field, so a public log entry can hide a non-material field's value and salt, show only its
// digest, and still reproduce the same hash. The digest form follows SD-JWT's disclosures (the
// hash of the JSON array [salt, name, value]), canonicalized with JCS so every verifier hashes
// the same bytes.
import { encodeBase64url } from '../crypto/base64url';
import { canonicalBytes } from '../crypto/jcs';
import { sha256, sha256Hex } from '../crypto/sha256';
import type { HashString, PartyDid, Terms } from './primitives';

/** Fields outside `terms` are material: they say who agreed to what, when; never redactable. */
export const MATERIAL_FIELDS = [
  'agreement_id',
  'negotiation_id',
  'parties',
  'effective_from',
  'effective_until',
  'metadata',
] as const;
export const MATERIAL_POINTERS: readonly string[] = MATERIAL_FIELDS.map((field) => `/${field}`);

export const isMaterialPointer = (pointer: string): boolean => MATERIAL_POINTERS.includes(pointer);

/**
 * Material, but published as its salted digest alone when the negotiation is not `public`: the
 * negotiation id is the key to its history, so the log shows a commitment to it that only the
 * parties (who hold the salt seed) can open (docs/decisions-negotiation.md, "Log commitments").
 */
export const NEGOTIATION_ID_POINTER = '/negotiation_id';

/** Material fields a public entry must disclose in the clear. */
export const isDisclosedMaterialPointer = (pointer: string): boolean =>
  isMaterialPointer(pointer) && pointer !== NEGOTIATION_ID_POINTER;

/** The parts of an agreement that are committed to; salts derive from `salt_seed`. */
export interface CommittedAgreement {
  readonly agreement_id: string;
  readonly negotiation_id: string;
  readonly parties: readonly [PartyDid, PartyDid];
  readonly terms: Terms;
  readonly effective_from: string;
  readonly effective_until: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly salt_seed: string;
}

// RFC 6901 JSON Pointer escaping, so a term key containing "/" or "~" names one field only.
export const termPointer = (key: string): string => `/terms/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** Every committed field as [JSON Pointer, value]: the material fields, then one per term. */
export function committedFields(agreement: CommittedAgreement): Array<readonly [string, unknown]> {
  const material = MATERIAL_FIELDS.map((field) => [`/${field}`, agreement[field]] as const);
  const terms = Object.keys(agreement.terms)
    .sort()
    .map((key) => [termPointer(key), agreement.terms[key]] as const);
  return [...material, ...terms];
}

/**
 * 16 bytes of SHA-256 over [domain, seed, pointer]: revealing one field's salt reveals
 * nothing about the seed or any other field's salt.
 */
export const fieldSalt = (saltSeed: string, pointer: string): string =>
  encodeBase64url(sha256(canonicalBytes(['oap-rfc0002-field-salt', saltSeed, pointer])).slice(0, 16));

export const fieldDigest = (salt: string, pointer: string, value: unknown): string =>
  sha256Hex(canonicalBytes([salt, pointer, value]));

export function digestMap(agreement: CommittedAgreement): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const [pointer, value] of committedFields(agreement)) {
    digests[pointer] = fieldDigest(fieldSalt(agreement.salt_seed, pointer), pointer, value);
  }
  return digests;
}

/** `sha256-` + hex SHA-256 of the JCS digest map: the agreement hash and the log's integrity hash. */
export const commitmentHash = (digests: Readonly<Record<string, string>>): HashString =>
  `sha256-${sha256Hex(canonicalBytes(digests))}`;

/** The commitment a non-public log entry publishes instead of the negotiation id, with its opening. */
export function negotiationCommitment(agreement: CommittedAgreement): {
  pointer: string;
  salt: string;
  digest: string;
} {
  const salt = fieldSalt(agreement.salt_seed, NEGOTIATION_ID_POINTER);
  return {
    pointer: NEGOTIATION_ID_POINTER,
    salt,
    digest: fieldDigest(salt, NEGOTIATION_ID_POINTER, agreement.negotiation_id),
  };
}
