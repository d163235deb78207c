// RFC 0002 §3.6 manifest declaration, and the limits the state machine enforces from it.
import { z } from 'zod';
import { fail, ok, type Result } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { Category, toTimestamp } from './primitives';
import { TermFields } from './term-fields';

// Loose object: a manifest is published by someone else and may grow fields we do not use.
// Only `supported` is required, since §4 lets a Tool declare nothing else.
export const NegotiationDeclaration = z.object({
  supported: z.boolean(),
  categories: z.array(Category).min(1).optional(),
  max_rounds: z.int().min(1).max(1000).optional(),
  default_validity_minutes: z.int().min(1).max(525_600).optional(),
  binding_acceptance: z.boolean().optional(),
  withdrawal_penalty_terms: z.url().optional(),
  /** Project extension: the terms each category names, for forms (term-fields.ts). */
  terms: TermFields.optional(),
});
export type NegotiationDeclaration = z.infer<typeof NegotiationDeclaration>;

export const ManifestDeclaration = z.object({ negotiation: NegotiationDeclaration });
export type ManifestDeclaration = z.infer<typeof ManifestDeclaration>;

export interface NegotiationLimits {
  /** Allowed categories, or null for any. */
  readonly categories: readonly string[] | null;
  readonly maxRounds: number;
  readonly defaultValidityMinutes: number;
  /** How far a signed `at` may sit from the Tool's clock, either way. */
  readonly clockSkewMs: number;
}

// The values of the §3.6 example, used where a manifest leaves a field out.
export const DEFAULT_LIMITS: NegotiationLimits = {
  categories: null,
  maxRounds: 8,
  defaultValidityMinutes: 60,
  clockSkewMs: 5 * 60_000,
};

export function limitsFromManifest(
  manifest: unknown,
  clockSkewMs: number = DEFAULT_LIMITS.clockSkewMs,
): Result<NegotiationLimits> {
  const parsed = ManifestDeclaration.safeParse(manifest);
  if (!parsed.success) {
    return fail(Code.INVALID_DOCUMENT, 'Not a RFC 0002 §3.6 manifest declaration.', { issues: parsed.error.issues });
  }
  const n = parsed.data.negotiation;
  if (!n.supported)
    return fail(Code.NEGOTIATION_NOT_SUPPORTED, 'The manifest does not declare negotiation.supported = true.');
  // §3.1 defines Acceptance as creating a binding Agreement; this core implements nothing else.
  if (n.binding_acceptance === false) {
    return fail(
      Code.NEGOTIATION_NOT_SUPPORTED,
      'Only binding acceptance is supported (binding_acceptance must be true).',
    );
  }
  return ok({
    categories: n.categories ?? DEFAULT_LIMITS.categories,
    maxRounds: n.max_rounds ?? DEFAULT_LIMITS.maxRounds,
    defaultValidityMinutes: n.default_validity_minutes ?? DEFAULT_LIMITS.defaultValidityMinutes,
    clockSkewMs,
  });
}

/** The `valid_until` a client puts on a proposal when its user chose none. */
export const defaultValidUntil = (now: number, limits: NegotiationLimits): string =>
  toTimestamp(now + limits.defaultValidityMinutes * 60_000);
