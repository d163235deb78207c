// What a public transparency-log entry shows of an agreement (RFC 0002 §6): every committed
// field either disclosed as {value, salt} or redacted to {digest}. Both reproduce the same
// integrity hash, so redaction never breaks the log; material fields are always disclosed.
import { z } from 'zod';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { fail, ok, type Result } from '../errors';
import { agreementSignatureVerifies, type Agreement } from './agreement';
import { NegotiationErrorCode as Code } from './error-codes';
import {
  commitmentHash,
  committedFields,
  fieldDigest,
  fieldSalt,
  isDisclosedMaterialPointer,
  isMaterialPointer,
  MATERIAL_POINTERS,
  NEGOTIATION_ID_POINTER,
} from './field-commitments';
import { AgreementId, HexDigest, PartyDid, Salt, Signature, type HashString } from './primitives';

export const Disclosure = z.union([
  z.strictObject({ value: z.json(), salt: Salt }),
  z.strictObject({ digest: HexDigest }),
]);
export type Disclosure = z.infer<typeof Disclosure>;

export const PublicView = z.strictObject({
  /** Keyed by RFC 6901 JSON Pointer into the agreement. */
  disclosures: z.record(z.string().startsWith('/'), Disclosure),
  /** Parties' signatures over the agreement statement; verifiable without the redacted fields. */
  signatures: z.record(PartyDid, Signature),
});
export type PublicView = z.infer<typeof PublicView>;

const isRedacted = (d: Disclosure): d is { digest: string } => 'digest' in d;

/**
 * §3.7 meets §6: above `public`, the terms stay out of the public log unless a party says
 * otherwise, and so does the negotiation id (its digest is published: a commitment the parties
 * can open, which does not let anyone else fetch the negotiation).
 */
export const defaultRedactions = (agreement: Agreement): string[] =>
  agreement.metadata.confidentiality === 'public'
    ? []
    : [
        NEGOTIATION_ID_POINTER,
        ...committedFields(agreement)
          .map(([pointer]) => pointer)
          .filter((pointer) => !isMaterialPointer(pointer)),
      ];

function checkRedactable(known: readonly string[], redact: readonly string[]): Result<true> {
  const material = redact.filter(isDisclosedMaterialPointer);
  if (material.length > 0)
    return fail(
      Code.MATERIAL_FIELD_REDACTED,
      'Material fields cannot be redacted (§6); only the negotiation id may be published as its commitment.',
      { pointers: material },
    );
  const unknown = redact.filter((p) => !known.includes(p));
  if (unknown.length > 0) return fail(Code.UNKNOWN_FIELD, 'The agreement has no such field.', { pointers: unknown });
  return ok(true);
}

export function publicView(
  agreement: Agreement,
  redact: readonly string[] = defaultRedactions(agreement),
): Result<PublicView> {
  const fields = committedFields(agreement);
  const allowed = checkRedactable(
    fields.map(([pointer]) => pointer),
    redact,
  );
  if (!allowed.ok) return allowed;
  const disclosures: Record<string, Disclosure> = {};
  for (const [pointer, value] of fields) {
    const salt = fieldSalt(agreement.salt_seed, pointer);
    disclosures[pointer] = redact.includes(pointer)
      ? { digest: fieldDigest(salt, pointer, value) }
      : { value: value as z.core.util.JSONType, salt };
  }
  return ok({ disclosures, signatures: { ...agreement.signatures } });
}

/** Redacts more fields of an existing view (redaction only ever hides; it never reveals). */
export function redactView(view: PublicView, redact: readonly string[]): Result<PublicView> {
  const allowed = checkRedactable(Object.keys(view.disclosures), redact);
  if (!allowed.ok) return allowed;
  const disclosures: Record<string, Disclosure> = {};
  for (const [pointer, d] of Object.entries(view.disclosures)) {
    disclosures[pointer] =
      redact.includes(pointer) && !isRedacted(d) ? { digest: fieldDigest(d.salt, pointer, d.value) } : d;
  }
  return ok({ ...view, disclosures });
}

export interface VerifiedView {
  readonly agreement_id: string;
  readonly parties: readonly [PartyDid, PartyDid];
  readonly redacted: readonly string[];
}

/** Recomputes the integrity hash from the view and checks the signatures it carries. */
export function verifyView(
  view: PublicView,
  integrityHash: HashString,
  check?: DidSignatureCheck,
): Result<VerifiedView> {
  const hidden = MATERIAL_POINTERS.filter((p) => {
    const d = view.disclosures[p];
    return d === undefined || (isRedacted(d) && isDisclosedMaterialPointer(p));
  });
  if (hidden.length > 0)
    return fail(Code.MATERIAL_FIELD_REDACTED, 'A public entry must disclose every material field.', {
      pointers: hidden,
    });
  const digests: Record<string, string> = {};
  for (const [pointer, d] of Object.entries(view.disclosures)) {
    digests[pointer] = isRedacted(d) ? d.digest : fieldDigest(d.salt, pointer, d.value);
  }
  const actual = commitmentHash(digests);
  if (actual !== integrityHash)
    return fail(Code.INTEGRITY_MISMATCH, 'The disclosed fields do not hash to the integrity hash.', { actual });

  const agreementId = AgreementId.safeParse((view.disclosures['/agreement_id'] as { value: unknown }).value);
  const parties = z.tuple([PartyDid, PartyDid]).safeParse((view.disclosures['/parties'] as { value: unknown }).value);
  if (!agreementId.success || !parties.success)
    return fail(Code.AGREEMENT_INVALID, 'The committed agreement_id or parties are malformed.');
  const statement = { agreement_id: agreementId.data, agreement_hash: integrityHash };
  for (const [signer, signature] of Object.entries(view.signatures)) {
    const party = signer as PartyDid;
    if (!parties.data.includes(party) || !agreementSignatureVerifies(statement, party, signature, check)) {
      return fail(Code.AGREEMENT_SIGNATURE_INVALID, `The signature of ${signer} does not verify over this agreement.`, {
        signer,
      });
    }
  }
  const redacted = Object.entries(view.disclosures)
    .filter(([, d]) => isRedacted(d))
    .map(([p]) => p);
  return ok({ agreement_id: agreementId.data, parties: parties.data, redacted });
}
