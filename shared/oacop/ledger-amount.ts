// Ledger amounts: decimal strings of OAP credits with at most 8 decimals (the burn format of the
// server's local ledger, docs/decisions-oacop.md §A2), held as whole units of 10⁻⁸ in a bigint so
// sums and comparisons are exact at any size. Both stores keep balances as these units in decimal
// text; the ledger, the stores and the CLI share this one definition.

export const AMOUNT_PATTERN = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,8})?$/;
const DECIMALS = 8;
const SCALE = 10n ** BigInt(DECIMALS);

export const isAmount = (text: string): boolean => AMOUNT_PATTERN.test(text);

/** "10.5" → 1050000000n. Throws on anything but an amount. */
export function toUnits(amount: string): bigint {
  if (!isAmount(amount)) throw new RangeError(`not an amount: ${amount.slice(0, 40)}`);
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * SCALE + BigInt(fraction.padEnd(DECIMALS, '0'));
}

/** 1050000000n → "10.5": no trailing zeros, no decimal point for whole numbers. */
export function fromUnits(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = abs / SCALE;
  const fraction = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
