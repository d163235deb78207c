import { describe, expect, it } from 'vitest';
import {
  agoInWords,
  decidedDetail,
  decidedInWords,
  displayName,
  initials,
  namesInWords,
  presentInWords,
} from './operator-words';

const ANA = 'did:key:z6MkAnaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1';
const BEN = 'did:key:z6MkBenBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB2';
const OLA = 'did:key:z6MkOlaOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO3';
const at = (did: string, name: string | null, role: 'facilitator' | 'observer' = 'facilitator') => ({
  did,
  name,
  role,
  seenAt: 0,
});

describe('operator words', () => {
  it('names an operator by name, else “Operator …” and the did’s tail, and makes initials', () => {
    expect(displayName({ did: ANA, name: 'Ana Lima' })).toBe('Ana Lima');
    expect(displayName({ did: BEN, name: null })).toBe('Operator …BBBBB2');
    expect(initials({ did: ANA, name: 'ana maria lima' })).toBe('AL');
    expect(initials({ did: ANA, name: 'Ølaf' })).toBe('Ø');
    expect(initials({ did: BEN, name: null })).toBe('B2');
  });

  it('says how long ago in words', () => {
    expect(agoInWords(10_000, 10_500)).toBe('just now');
    expect(agoInWords(0, 12_000)).toBe('12 seconds ago');
    expect(agoInWords(0, 61_000)).toBe('1 minute ago');
    expect(agoInWords(0, 3 * 3_600_000)).toBe('3 hours ago');
    expect(agoInWords(0, 72 * 3_600_000)).toBe('3 days ago');
    expect(agoInWords(5_000, 0)).toBe('just now');
  });

  it('lists names the way people say them', () => {
    expect(namesInWords(['Ana'])).toBe('Ana');
    expect(namesInWords(['Ana', 'Ben'])).toBe('Ana and Ben');
    expect(namesInWords(['Ana', 'Ben', 'Cy'])).toBe('Ana, Ben and Cy');
    expect(namesInWords(['Ana', 'Ben', 'Cy', 'Dee', 'Eve'])).toBe('Ana, Ben and 3 others');
  });

  it('says who else is here, leaving me out and naming observers as such', () => {
    expect(presentInWords([at(ANA, 'Ana'), at(BEN, 'Ben')], null)).toBe('Ana and Ben are here');
    expect(presentInWords([at(ANA, 'Ana'), at(BEN, 'Ben')], BEN)).toBe('Ana is here');
    expect(presentInWords([at(ANA, 'Ana'), at(OLA, 'Ola', 'observer')], BEN)).toBe('Ana and Ola (observer) are here');
    expect(presentInWords([at(BEN, 'Ben')], BEN)).toBe('Only you are here');
  });

  it('says who won a race and when', () => {
    const detail = { decision: 'approved', decidedBy: { did: ANA, name: 'Ana' }, decidedAt: 1_000 };
    expect(decidedInWords(detail, 13_000, BEN)).toBe('Ana approved this 12 seconds ago.');
    expect(decidedInWords(detail, 13_000, ANA)).toBe('You approved this 12 seconds ago.');
    expect(decidedInWords({ decision: 'expired', decidedBy: null, decidedAt: 0 }, 180_000, BEN)).toBe(
      'This was expired 3 minutes ago.',
    );
    expect(decidedDetail(detail)).toEqual(detail);
    expect(decidedDetail({ decision: 'approved' })).toBeUndefined();
    expect(decidedDetail({ decision: 'approved', decidedBy: { did: 1 }, decidedAt: 0 })).toBeUndefined();
    expect(decidedDetail(null)).toBeUndefined();
  });
});
