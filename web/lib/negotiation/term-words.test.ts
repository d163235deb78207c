import { describe, expect, it } from 'vitest';
import { pointerInWords, pointersInSentence, termName } from './term-words';

describe('term words', () => {
  it('says term names in words, units and currencies in brackets', () => {
    expect(termName('price_per_call_eur')).toBe('price per call (EUR)');
    expect(termName('calls_per_month')).toBe('calls per month');
    expect(termName('latency_ms')).toBe('latency (ms)');
    expect(termName('metadata')).toBe('metadata');
    expect(termName('slaTier')).toBe('SLA tier');
    // A unit alone is a name, not a unit.
    expect(termName('ms')).toBe('ms');
  });

  it('says pointers as paths of names', () => {
    expect(pointerInWords('/price_per_call_eur')).toBe('price per call (EUR)');
    expect(pointerInWords('/sla/latency_ms')).toBe('SLA › latency (ms)');
    expect(pointerInWords('/slots/0/start')).toBe('slots › item 1 › start');
    expect(pointerInWords('/a~1b')).toBe('a/b');
    expect(pointerInWords('')).toBe('the terms');
  });

  it('says the pointers inside a refusal, leaving the rest alone', () => {
    expect(pointersInSentence('Invalid body: /metadata must be an object')).toBe(
      'Invalid body: “metadata” must be an object',
    );
    expect(pointersInSentence('see https://x.test/a/b')).toBe('see https://x.test/a/b');
    expect(pointersInSentence('/price_per_call_eur: too high')).toBe('“price per call (EUR)”: too high');
  });
});
