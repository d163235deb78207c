import { describe, expect, it } from 'vitest';
import { readEntry } from './entry-words';

const A = 'did:key:z6MkA';
const B = 'did:key:z6MkB';

describe('a log entry read for people', () => {
  it('takes parties, category, start and terms from the disclosures, listing redacted terms as hidden', () => {
    const reading = readEntry({
      index: 3,
      public: {
        disclosures: {
          '/agreement_id': { salt: 's', value: 'agr_1' },
          '/parties': { salt: 's', value: [A, B] },
          '/effective_from': { salt: 's', value: '2026-11-28T00:00:00Z' },
          '/effective_until': { salt: 's', value: null },
          '/metadata': { salt: 's', value: { category: 'pricing', confidentiality: 'public', round: 2 } },
          '/terms/price_per_call_eur': { salt: 's', value: '0.0042' },
          '/terms/calls_per_month': { salt: 's', value: 50000 },
          '/terms/patient~1ward': { digest: 'sha256-x' },
        },
        signatures: { [A]: 'sig', [B]: 'sig' },
      },
    });
    expect(reading).toEqual({
      parties: [A, B],
      category: 'pricing',
      effectiveFrom: '2026-11-28T00:00:00Z',
      effectiveUntil: null,
      terms: { price_per_call_eur: '0.0042', calls_per_month: 50000 },
      hidden: ['patient/ward'],
      agreementId: 'agr_1',
      signers: [A, B],
      confidentiality: 'public',
    });
  });

  it('reads nothing into an entry of another shape', () => {
    expect(readEntry({ public: 'nonsense' })).toMatchObject({ parties: [], terms: {}, hidden: [], signers: [] });
  });
});
