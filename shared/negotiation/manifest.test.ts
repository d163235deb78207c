import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import { NegotiationErrorCode as Code } from './error-codes';
import { DEFAULT_LIMITS, defaultValidUntil, limitsFromManifest } from './manifest';
import { T0 } from './test-support/fixtures';

// RFC 0002 §3.6, verbatim.
const RFC_EXAMPLE = {
  negotiation: {
    supported: true,
    categories: ['pricing', 'scheduling', 'scope', 'sla'],
    max_rounds: 8,
    default_validity_minutes: 60,
    binding_acceptance: true,
    withdrawal_penalty_terms: 'https://example.com/legal/walk-away.pdf',
  },
};
const code = (r: ReturnType<typeof limitsFromManifest>) => (r.ok ? 'ok' : r.error.code);

describe('manifest declaration (§3.6)', () => {
  it('reads the RFC example into limits', () => {
    expect(unwrap(limitsFromManifest(RFC_EXAMPLE))).toEqual({
      categories: ['pricing', 'scheduling', 'scope', 'sla'],
      maxRounds: 8,
      defaultValidityMinutes: 60,
      clockSkewMs: DEFAULT_LIMITS.clockSkewMs,
    });
  });

  it('fills what a minimal declaration leaves out, and ignores fields it does not know', () => {
    expect(unwrap(limitsFromManifest({ negotiation: { supported: true, future_field: 1 } }, 1000))).toEqual({
      ...DEFAULT_LIMITS,
      clockSkewMs: 1000,
    });
  });

  it('refuses a Tool that does not negotiate (§4) or only non-binding acceptance', () => {
    expect(code(limitsFromManifest({ negotiation: { supported: false } }))).toBe(Code.NEGOTIATION_NOT_SUPPORTED);
    expect(code(limitsFromManifest({ negotiation: { ...RFC_EXAMPLE.negotiation, binding_acceptance: false } }))).toBe(
      Code.NEGOTIATION_NOT_SUPPORTED,
    );
  });

  it('refuses malformed declarations', () => {
    expect(code(limitsFromManifest({}))).toBe(Code.INVALID_DOCUMENT);
    expect(code(limitsFromManifest({ negotiation: { supported: true, max_rounds: 0 } }))).toBe(Code.INVALID_DOCUMENT);
    expect(code(limitsFromManifest({ negotiation: { supported: true, categories: [] } }))).toBe(Code.INVALID_DOCUMENT);
    expect(
      code(limitsFromManifest({ negotiation: { supported: true, withdrawal_penalty_terms: 'walk-away.pdf' } })),
    ).toBe(Code.INVALID_DOCUMENT);
  });

  it('defaultValidUntil adds default_validity_minutes to now', () => {
    expect(defaultValidUntil(T0, DEFAULT_LIMITS)).toBe('2026-05-03T11:00:00.000Z');
  });
});
