import { describe, expect, it } from 'vitest';
import { fromUnits, isAmount, toUnits } from './ledger-amount';

describe('ledger amounts', () => {
  it.each([
    ['0', 0n],
    ['10.5', 1_050_000_000n],
    ['0.00000001', 1n],
    ['999999999999999999.99999999', 99_999_999_999_999_999_999_999_999n],
  ])('%s is %s units and back', (amount, units) => {
    expect(toUnits(amount)).toBe(units);
    expect(fromUnits(units)).toBe(amount);
  });

  it('writes whole numbers without a point and negatives with a sign', () => {
    expect(fromUnits(200_000_000n)).toBe('2');
    expect(fromUnits(-150_000_000n)).toBe('-1.5');
  });

  it.each(['', '01', '1.', '.5', '1.123456789', '-1', '1e3', '1000000000000000000'])('refuses %j', (text) => {
    expect(isAmount(text)).toBe(false);
    expect(() => toUnits(text)).toThrow(RangeError);
  });
});
