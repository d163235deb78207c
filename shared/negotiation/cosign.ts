// Completing the agreement after acceptance (RFC 0002 §3.5 "signed Agreement"): the accepter
// signed it inside the acceptance; the proposer adds its signature here. The negotiation stays
// ACCEPTED; neither status nor terms change, so this is not a §3.2 transition.
import { z } from 'zod';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { fail, ok, type Result } from '../errors';
import { addAgreementSignature } from './agreement';
import { NegotiationErrorCode as Code } from './error-codes';
import { PartyDid, Signature } from './primitives';
import { advance, receivedAt, type NegotiationState } from './state';
import { parseDocument } from './verify-document';

export const CoSignature = z.strictObject({ by: PartyDid, signature: Signature });
export type CoSignature = z.infer<typeof CoSignature>;

export function cosignAgreement(
  state: NegotiationState,
  input: unknown,
  now: number,
  check?: DidSignatureCheck,
): Result<NegotiationState> {
  if (state.status !== 'ACCEPTED' || state.agreement === null) {
    return fail(Code.INVALID_TRANSITION, 'Only an accepted negotiation has an agreement to co-sign.', {
      status: state.status,
    });
  }
  const parsed = parseDocument(CoSignature, input, 'co-signature');
  if (!parsed.ok) return parsed;
  const { by, signature } = parsed.value;
  const signed = addAgreementSignature(state.agreement, by, signature, check);
  if (!signed.ok) return signed;
  return ok(
    advance(state, { type: 'cosign', by, signature, received_at: receivedAt(now) }, 'ACCEPTED', {
      agreement: signed.value,
    }),
  );
}
