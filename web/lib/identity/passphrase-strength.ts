// A rough, honest strength hint for a backup passphrase: the lower of two guessing-work
// estimates (random characters; dictionary words), less the obvious patterns. A nudge, not a
// guarantee; the backup's 600,000 PBKDF2 rounds add about 19 bits on top of whatever is there.
import { MIN_PASSPHRASE_LENGTH } from './key-backup';

export type StrengthLevel = 'too-short' | 'weak' | 'fair' | 'strong' | 'very-strong';

export interface PassphraseStrength {
  readonly level: StrengthLevel;
  /** 0–4, for a meter. */
  readonly score: 0 | 1 | 2 | 3 | 4;
  readonly hint: string;
}

const COMMON = ['password', 'passphrase', 'switchboard', 'qwerty', 'letmein', 'welcome', 'admin', '123456', 'abcdef'];

/** Guessing work if the characters were drawn at random, with repeats and runs discounted. */
function randomModelBits(passphrase: string): number {
  const chars = [...passphrase];
  let pool = 0;
  if (/[a-z]/.test(passphrase)) pool += 26;
  if (/[A-Z]/.test(passphrase)) pool += 26;
  if (/[0-9]/.test(passphrase)) pool += 10;
  if (/[^A-Za-z0-9]/.test(passphrase)) pool += 33;
  let effective = 1;
  for (let i = 1; i < chars.length; i++) {
    const step = Math.abs((chars[i]?.codePointAt(0) ?? 0) - (chars[i - 1]?.codePointAt(0) ?? 0));
    effective += step > 1 ? 1 : 0.25;
  }
  return effective * Math.log2(Math.max(pool, 2));
}

/**
 * Guessing work if runs of four or more letters are dictionary words (about 2.6 bits a letter,
 * as Diceware's 12.9 bits a word of ~5 letters), short runs random letters, digits 3.3 bits,
 * symbols 5, and each capital one bit more.
 */
function wordModelBits(passphrase: string): number {
  let bits = 0;
  for (const run of passphrase.match(/\p{L}+/gu) ?? []) bits += [...run].length * (run.length >= 4 ? 2.6 : 4.7);
  bits += (passphrase.match(/\p{Lu}/gu)?.length ?? 0) * 1;
  bits += (passphrase.match(/[0-9]/g)?.length ?? 0) * 3.3;
  bits += (passphrase.match(/[^\p{L}0-9\s]/gu)?.length ?? 0) * 5;
  return bits;
}

export function estimateBits(passphrase: string): number {
  if (passphrase.length === 0) return 0;
  let bits = Math.min(randomModelBits(passphrase), wordModelBits(passphrase));
  const lower = passphrase.toLowerCase();
  if (COMMON.some((word) => lower.includes(word))) bits -= 20;
  return Math.max(0, bits);
}

export function passphraseStrength(passphrase: string): PassphraseStrength {
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
    return {
      level: 'too-short',
      score: 0,
      hint: `Use at least ${MIN_PASSPHRASE_LENGTH} characters. A few unrelated words work well.`,
    };
  }
  const bits = estimateBits(passphrase);
  if (bits < 40)
    return { level: 'weak', score: 1, hint: 'Easy to guess. Add another unrelated word, or make it longer.' };
  if (bits < 60) return { level: 'fair', score: 2, hint: 'One more word would make it strong.' };
  if (bits < 80) return { level: 'strong', score: 3, hint: 'Keep it somewhere apart from the backup file.' };
  return { level: 'very-strong', score: 4, hint: 'Keep it somewhere apart from the backup file.' };
}
