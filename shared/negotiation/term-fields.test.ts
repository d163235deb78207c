import { describe, expect, it } from 'vitest';
import { fieldsFromTerms, termsFromFields, type TermField } from './term-fields';
import { ManifestDeclaration } from './manifest';

const FIELDS: TermField[] = [
  { name: 'price_per_call_eur', label: 'Price per call (EUR)', type: 'decimal', decimals: 4, min: 0, required: true },
  { name: 'calls_per_month', label: 'Calls per month', type: 'integer', min: 1 },
  { name: 'effective_from', label: 'Start date', type: 'date' },
  { name: 'uptime_percent', label: 'Uptime', type: 'number', max: 100 },
];

describe('term fields', () => {
  it('turn field values into terms: decimals stay strings, integers become numbers, empty ones are left out', () => {
    const r = termsFromFields(
      FIELDS,
      { price_per_call_eur: ' 0.0045 ', calls_per_month: '120000', effective_from: '2026-06-01', uptime_percent: '' },
      { currency: 'EUR', uptime_percent: 99 },
    );
    expect(r).toEqual({
      ok: true,
      terms: {
        currency: 'EUR',
        price_per_call_eur: '0.0045',
        calls_per_month: 120000,
        effective_from: '2026-06-01T00:00:00Z',
      },
    });
  });

  it('name each bad field: not a number, too many places, out of range, not a calendar day, required', () => {
    const r = termsFromFields(FIELDS, {
      price_per_call_eur: '0.00451',
      calls_per_month: '1.5',
      effective_from: '2026-02-30',
      uptime_percent: '101',
    });
    expect(r).toEqual({
      ok: false,
      problems: {
        price_per_call_eur: 'At most 4 decimal places.',
        calls_per_month: 'A whole number.',
        effective_from: 'A date, such as 28 Nov 2026.',
        uptime_percent: 'At most 100.',
      },
    });
    expect(termsFromFields(FIELDS, { calls_per_month: '0' })).toEqual({
      ok: false,
      problems: { price_per_call_eur: 'Required.', calls_per_month: 'At least 1.' },
    });
    expect(termsFromFields(FIELDS, { price_per_call_eur: 'cheap' })).toMatchObject({
      problems: { price_per_call_eur: 'A decimal number, e.g. 0.0045.' },
    });
  });

  it('split terms back into field values and the other terms, and round-trip', () => {
    const terms = {
      price_per_call_eur: '0.0052',
      calls_per_month: 120000,
      effective_from: '2026-07-01T00:00:00Z',
      currency: 'EUR',
      tiers: [1, 2],
    };
    const { values, other } = fieldsFromTerms(FIELDS, terms);
    expect(values).toEqual({ price_per_call_eur: '0.0052', calls_per_month: '120000', effective_from: '2026-07-01' });
    expect(other).toEqual({ currency: 'EUR', tiers: [1, 2] });
    expect(termsFromFields(FIELDS, values, other)).toEqual({ ok: true, terms });
    // A time of day does not fit a date field: it stays with the other terms, unchanged.
    const slot = fieldsFromTerms(FIELDS, { effective_from: '2026-07-01T14:00:00Z' });
    expect(slot).toEqual({ values: {}, other: { effective_from: '2026-07-01T14:00:00Z' } });
  });

  it('travel in the manifest declaration, which refuses a malformed field', () => {
    const manifest = { negotiation: { supported: true, terms: { pricing: FIELDS } } };
    expect(ManifestDeclaration.parse(manifest).negotiation.terms?.pricing).toHaveLength(4);
    const bad = {
      negotiation: { supported: true, terms: { pricing: [{ name: 'Price!', label: 'x', type: 'decimal' }] } },
    };
    expect(ManifestDeclaration.safeParse(bad).success).toBe(false);
  });
});
