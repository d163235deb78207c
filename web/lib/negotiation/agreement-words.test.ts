import { describe, expect, it } from 'vitest';
import type { TermField } from '@shared/negotiation/term-fields';
import { agreementSentence, termLines } from './agreement-words';

const NOW = Date.UTC(2026, 10, 27, 12);
const FIELDS: TermField[] = [
  { name: 'price_per_call_eur', label: 'Price per call (EUR)', type: 'decimal', decimals: 4, required: true },
  { name: 'calls_per_month', label: 'Calls per month', type: 'integer' },
  { name: 'effective_from', label: 'Start date', type: 'date' },
  { name: 'minimum_commitment_months', label: 'Minimum commitment (months)', type: 'integer' },
  { name: 'action', label: 'Service action', type: 'text' },
];
const TERMS = {
  calls_per_month: 50000,
  price_per_call_eur: '0.0042',
  action: 'weather.forecast.detailed',
  effective_from: '2026-11-28T00:00:00Z',
  payment_terms: 'net 30',
};

describe('terms as labelled fields with units', () => {
  it('follows the manifest’s fields and order, the unit moved to the value, then other terms in words', () => {
    expect(termLines(TERMS, FIELDS, 'Europe/Berlin', NOW)).toEqual([
      { key: 'price_per_call_eur', label: 'Price per call', value: '0.0042 EUR' },
      { key: 'calls_per_month', label: 'Calls per month', value: '50,000' },
      { key: 'effective_from', label: 'Start date', value: 'Sat 28 Nov' },
      { key: 'action', label: 'Service action', value: 'weather.forecast.detailed' },
      { key: 'payment_terms', label: 'Payment terms', value: 'net 30' },
    ]);
  });

  it('labels terms no manifest names by their key, and says which a party hid', () => {
    expect(termLines({ sla_latency_ms: 250, fee_eur: '12.50' }, undefined, 'UTC', NOW, ['uptime_percent'])).toEqual([
      { key: 'sla_latency_ms', label: 'SLA latency', value: '250 ms' },
      { key: 'fee_eur', label: 'Fee', value: '12.50 EUR' },
      { key: 'uptime_percent', label: 'Uptime', value: null },
    ]);
  });
});

describe('an agreement in one sentence', () => {
  it('names the other party first and the operator as “you”', () => {
    expect(
      agreementSentence({
        parties: ['You', 'Acme Weather API'],
        terms: TERMS,
        effectiveFrom: '2026-11-28T00:00:00Z',
        zone: 'UTC',
        now: NOW,
      }),
    ).toBe(
      'Agreement between Acme Weather API and you: weather.forecast.detailed, 50,000 calls a month at 0.0042 EUR per call, from Sat 28 Nov',
    );
  });

  it('says what it can of other terms, and no start it does not know', () => {
    expect(
      agreementSentence({ parties: ['Northwind', 'Acme'], terms: { uptime_percent: 99.9 }, zone: 'UTC', now: NOW }),
    ).toBe('Agreement between Northwind and Acme: uptime 99.9 %');
    expect(agreementSentence({ parties: ['A', 'B'], terms: {}, zone: 'UTC', now: NOW })).toBe(
      'Agreement between A and B',
    );
  });
});
