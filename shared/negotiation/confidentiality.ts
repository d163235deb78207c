// RFC 0002 §3.7: a negotiation inherits the confidentiality class (CCC) of its most restrictive
// party, and a regulated profession facing an unregulated counterparty flags its obligations in
// the agreement metadata. The RFC names neither the classes nor the obligations; see decisions.
import { z } from 'zod';
import { PartyDid } from './primitives';

/** Ordered from least to most restrictive. */
export const CONFIDENTIALITY_CLASSES = ['public', 'internal', 'confidential', 'restricted'] as const;
export const ConfidentialityClass = z.enum(CONFIDENTIALITY_CLASSES);
export type ConfidentialityClass = z.infer<typeof ConfidentialityClass>;

export const RegulatedProfession = z.enum(['medical', 'legal', 'financial']);
export type RegulatedProfession = z.infer<typeof RegulatedProfession>;

/** Labels, not legal advice: what a counterparty must know it is dealing with. */
export const REGULATED_OBLIGATIONS: Readonly<Record<RegulatedProfession, readonly string[]>> = {
  medical: ['patient-confidentiality', 'health-data-protection', 'informed-consent'],
  legal: ['legal-professional-privilege', 'client-confidentiality', 'conflict-of-interest-check'],
  financial: ['know-your-customer', 'anti-money-laundering', 'record-keeping', 'suitability-disclosure'],
};

export const RegulatedObligation = z.strictObject({
  party: PartyDid,
  profession: RegulatedProfession,
  obligations: z.array(z.string()),
  /** True when the other party declared no regulated profession: the case §3.7 requires flagging. */
  counterparty_unregulated: z.boolean(),
});
export type RegulatedObligation = z.infer<typeof RegulatedObligation>;

const rank = (c: ConfidentialityClass): number => CONFIDENTIALITY_CLASSES.indexOf(c);

export function mostRestrictive(first: ConfidentialityClass, ...rest: ConfidentialityClass[]): ConfidentialityClass {
  return rest.reduce((max, c) => (rank(c) > rank(max) ? c : max), first);
}

/**
 * One entry per regulated party, in party order. §3.7 only requires the flag for a regulated
 * party facing an unregulated one; a pair of regulated parties is flagged too (never less).
 */
export function regulatedObligations(
  parties: readonly [PartyDid, PartyDid],
  regulated: Readonly<Partial<Record<PartyDid, RegulatedProfession>>>,
): RegulatedObligation[] {
  return parties.flatMap((party, i) => {
    const profession = regulated[party];
    if (profession === undefined) return [];
    const other = parties[1 - i] as PartyDid;
    return [
      {
        party,
        profession,
        obligations: [...REGULATED_OBLIGATIONS[profession]],
        counterparty_unregulated: regulated[other] === undefined,
      },
    ];
  });
}
