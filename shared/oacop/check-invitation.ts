// OACoP §6.2 anti-spam: an invitation from a DID outside the receiver's web of trust must carry an
// OAPP proof-of-burn the receiver verifies in the ledger. OAPP is not specified in OACoP; its
// ledger is reached through the injected `ledgerLookup` (docs/decisions-oacop.md, "OAPP ledger").
import { fail, ok, type Result } from '../errors';
import { OacopErrorCode } from './error-codes';
import type { Did, ProofOfBurn } from './messages';

export interface BurnRecord {
  /** Decimal string or number of OAP credits burned. */
  readonly amount: string | number;
  readonly burnedBy: Did;
  /** The threadId the burn already paid for, if any. */
  readonly usedFor?: string;
}

export interface InvitationCheck {
  readonly sender: Did;
  readonly threadId: string;
  readonly webOfTrust: ReadonlySet<Did>;
  /** "configured locally or retrieved from the OAP Registry" (§6.2); decimal string or number. */
  readonly minimumBurn: string | number;
  readonly proofOfBurn?: ProofOfBurn | undefined;
  readonly ledgerLookup: (txId: string) => BurnRecord | undefined;
}

export type InvitationVerdict = { readonly trusted: true } | { readonly trusted: false; readonly txId: string };

export type BurnProblem =
  'missing' | 'unknown_tx' | 'wrong_burner' | 'amount_mismatch' | 'insufficient' | 'already_used';

/**
 * `ok` for a trusted sender or a valid burn; otherwise `OACOP_PAYMENT_REQUIRED` with
 * `details.reason` saying what to fix. A burn pays for one thread: the same thread may be
 * re-delivered, another thread needs a new burn.
 */
export function checkInvitation(check: InvitationCheck): Result<InvitationVerdict> {
  if (check.webOfTrust.has(check.sender)) return ok({ trusted: true });
  const proof = check.proofOfBurn;
  if (proof === undefined) return refuse('missing', 'An invitation from outside the web of trust needs a proofOfBurn.');
  const record = check.ledgerLookup(proof.txId);
  if (record === undefined) return refuse('unknown_tx', `Burn ${proof.txId} is not in the ledger.`);
  if (record.burnedBy !== check.sender) return refuse('wrong_burner', `Burn ${proof.txId} was made by another DID.`);
  const burned = decimal(record.amount);
  const minimum = decimal(check.minimumBurn);
  if (burned === undefined || minimum === undefined)
    return refuse('insufficient', 'A burn amount is not a decimal number.');
  if (proof.amount !== undefined && compare(decimal(proof.amount) ?? burned, burned) !== 0) {
    return refuse(
      'amount_mismatch',
      `The invitation claims ${proof.amount} but the ledger holds ${String(record.amount)}.`,
    );
  }
  if (compare(burned, minimum) < 0) {
    return refuse('insufficient', `Burn ${String(record.amount)} is below the minimum ${String(check.minimumBurn)}.`);
  }
  if (record.usedFor !== undefined && record.usedFor !== check.threadId) {
    return refuse('already_used', `Burn ${proof.txId} already paid for another thread.`);
  }
  return ok({ trusted: false, txId: proof.txId });
}

const refuse = (reason: BurnProblem, message: string) => fail(OacopErrorCode.PAYMENT_REQUIRED, message, { reason });

interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

// Exact decimals as scaled integers: credits are money, and 0.1 + 0.2 must not be 0.30000000000000004.
function decimal(value: string | number): Decimal | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? String(value) : '') : value;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1] ?? '0'}${fraction}`), scale: fraction.length };
}

function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left === right ? 0 : left < right ? -1 : 1;
}
