import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URGENCIES } from '../contract/inbox';
import { compareItems, orderItems, type Ordered } from './order';

const item = fc.record({
  id: fc.string({ maxLength: 6 }),
  urgency: fc.constantFrom(...URGENCIES),
  since: fc.integer({ min: 0, max: 50 }),
});

describe('orderItems', () => {
  it('puts now before soon before info, then the oldest first, then by id', () => {
    const items: Ordered[] = [
      { id: 'b', urgency: 'info', since: 1 },
      { id: 'c', urgency: 'soon', since: 9 },
      { id: 'a', urgency: 'soon', since: 9 },
      { id: 'd', urgency: 'soon', since: 2 },
      { id: 'e', urgency: 'now', since: 99 },
    ];
    expect(orderItems(items).map((i) => i.id)).toEqual(['e', 'd', 'a', 'c', 'b']);
    expect(items[0]!.id).toBe('b');
  });

  it('is a total order: antisymmetric, transitive, zero only for equal ids', () => {
    fc.assert(
      fc.property(item, item, item, (a, b, c) => {
        expect(Math.sign(compareItems(a, b))).toBe(-Math.sign(compareItems(b, a)));
        if (compareItems(a, b) <= 0 && compareItems(b, c) <= 0) expect(compareItems(a, c)).toBeLessThanOrEqual(0);
        if (compareItems(a, b) === 0) expect(a.id).toBe(b.id);
      }),
    );
  });

  it('gives the same order whatever order the items came in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 20 }), fc.nat(), (items, seed) => {
        const shuffled = [...items].sort((x, y) => ((x.id.length * 31 + seed) % 7) - ((y.id.length * 31 + seed) % 7));
        expect(orderItems(shuffled)).toEqual(orderItems(items));
        const ordered = orderItems(items);
        for (let i = 1; i < ordered.length; i++) expect(compareItems(ordered[i - 1]!, ordered[i]!)).toBeLessThan(0);
      }),
    );
  });
});
