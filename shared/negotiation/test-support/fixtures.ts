// Deterministic parties, clocks and signed documents for the negotiation tests.
import { encodeDidKey, type DidKey } from '../../crypto/did-key';
import { keyPairFromSeed } from '../../crypto/ed25519';
import { unwrap } from '../../errors';
import { encodeBase64url } from '../../crypto/base64url';
import { buildAgreement, signAgreement, type Agreement } from '../agreement';
import { agreementOnAcceptance } from '../apply-acceptance';
import { nextProposalSkeleton } from '../available-actions';
import type { ConfidentialityClass } from '../confidentiality';
import {
  signNegotiationDocument,
  type Acceptance,
  type OpenDocument,
  type Proposal,
  type Rejection,
  type Unsigned,
  type Withdrawal,
} from '../documents';
import { DEFAULT_LIMITS, type NegotiationLimits } from '../manifest';
import { openNegotiation } from '../open-negotiation';
import { toTimestamp } from '../primitives';
import { appendEntry, type LogEntry } from '../transparency-log';
import { latestProposal, type NegotiationState, type TransitionContext } from '../state';

export interface TestParty {
  readonly did: DidKey;
  readonly secretKey: Uint8Array;
}

export function party(seedByte: number): TestParty {
  const kp = keyPairFromSeed(new Uint8Array(32).fill(seedByte));
  return { did: encodeDidKey(kp.publicKey), secretKey: kp.secretKey };
}

export const alice = party(1);
export const bob = party(2);
export const carol = party(3);
const byDid = new Map([alice, bob, carol].map((p) => [p.did, p]));
export const keyOf = (did: string): TestParty => {
  const p = byDid.get(did as DidKey);
  if (p === undefined) throw new Error(`no test key for ${did}`);
  return p;
};

export const T0 = Date.parse('2026-05-03T10:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const limits: NegotiationLimits = { ...DEFAULT_LIMITS, maxRounds: 4 };
export const ctx = (now: number = T0, l: NegotiationLimits = limits): TransitionContext => ({ now, limits: l });
export const SEED = 'A'.repeat(43);

export function openDoc(overrides: Partial<Unsigned<OpenDocument>> = {}, signer: TestParty = alice): OpenDocument {
  return signNegotiationDocument<OpenDocument>(
    {
      type: 'open',
      negotiation_id: 'neg_01HX2QF8GZRP9V3K5YXJW0AQ7M',
      parties: [alice.did, bob.did],
      opened_by: alice.did,
      category: 'pricing',
      confidentiality: { [alice.did]: 'internal', [bob.did]: 'public' },
      at: toTimestamp(T0),
      ...overrides,
    },
    signer.secretKey,
  );
}

export const opened = (overrides: Partial<Unsigned<OpenDocument>> = {}, now = T0): NegotiationState =>
  unwrap(openNegotiation(openDoc(overrides), ctx(now)));

export const TERMS = { action: 'weather.forecast.detailed', calls_per_month: 100000, price_per_call_eur: '0.0040' };

export function proposalDoc(
  state: NegotiationState,
  from: TestParty,
  overrides: Partial<Unsigned<Proposal>> = {},
  signer: TestParty = from,
): Proposal {
  const skeleton = nextProposalSkeleton(state, from.did);
  return signNegotiationDocument<Proposal>(
    {
      ...skeleton,
      proposal_id: `prp_${skeleton.round}x${from.did.slice(-6)}`,
      terms: { ...TERMS, round: skeleton.round },
      valid_until: toTimestamp(T0 + HOUR),
      ...overrides,
    },
    signer.secretKey,
  );
}

export function acceptanceDoc(
  state: NegotiationState,
  by: TestParty,
  overrides: Partial<Unsigned<Acceptance>> = {},
  now = T0,
): Acceptance {
  const latest = latestProposal(state);
  if (latest === null) throw new Error('no proposal to accept');
  const at = overrides.at ?? toTimestamp(now);
  const salt = overrides.salt_seed ?? SEED;
  const agreement = agreementOnAcceptance(state, latest, at, salt);
  return signNegotiationDocument<Acceptance>(
    {
      type: 'accept',
      negotiation_id: state.negotiation_id,
      proposal_id: latest.proposal_id,
      by: by.did,
      at,
      salt_seed: salt,
      agreement_signature: signAgreement(agreement, by.secretKey),
      ...overrides,
    },
    by.secretKey,
  );
}

export function rejectionDoc(
  state: NegotiationState,
  by: TestParty,
  overrides: Partial<Unsigned<Rejection>> = {},
  now = T0,
): Rejection {
  return signNegotiationDocument<Rejection>(
    {
      type: 'reject',
      negotiation_id: state.negotiation_id,
      proposal_id: latestProposal(state)?.proposal_id ?? 'prp_none',
      by: by.did,
      at: toTimestamp(now),
      reason: 'too expensive',
      ...overrides,
    },
    by.secretKey,
  );
}

export function withdrawalDoc(
  state: NegotiationState,
  by: TestParty,
  overrides: Partial<Unsigned<Withdrawal>> = {},
  now = T0,
): Withdrawal {
  return signNegotiationDocument<Withdrawal>(
    {
      type: 'withdraw',
      negotiation_id: state.negotiation_id,
      by: by.did,
      at: toTimestamp(now),
      ...overrides,
    },
    by.secretKey,
  );
}

/** Flips one base64url character of a signature: same length, different bytes. */
export const tamper = (signature: string): string => (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);

/** A fully co-signed agreement, built directly (no negotiation needed), for log and view tests. */
export function signedAgreement(
  n: number,
  options: {
    readonly terms?: Record<string, unknown>;
    readonly confidentiality?: ConfidentialityClass;
    readonly cosigned?: boolean;
  } = {},
): Agreement {
  const proposal = signNegotiationDocument<Proposal>(
    {
      proposal_id: `prp_log${n}`,
      negotiation_id: `neg_log${n}`,
      previous_proposal_id: null,
      from: alice.did,
      to: bob.did,
      round: 1,
      category: 'scheduling',
      terms: (options.terms ?? {
        slot: `2026-05-0${(n % 9) + 1}T09:00:00Z`,
        attendee_note: 'prefers mornings',
        fee_eur: '120.00',
      }) as Proposal['terms'],
      valid_until: toTimestamp(T0 + HOUR),
    },
    alice.secretKey,
  );
  const a = buildAgreement({
    negotiation_id: proposal.negotiation_id,
    parties: [alice.did, bob.did],
    confidentiality: options.confidentiality ?? 'public',
    regulated_obligations: [],
    proposal,
    accepted_at: toTimestamp(T0 + n * MINUTE),
    salt_seed: encodeBase64url(new Uint8Array(32).fill(n)),
  });
  const signatures: Record<string, string> = { [bob.did]: signAgreement(a, bob.secretKey) };
  if (options.cosigned !== false) signatures[alice.did] = signAgreement(a, alice.secretKey);
  return { ...a, signatures };
}

/** A log of the given agreements, one minute apart from T0. */
export function buildLog(agreements: readonly Agreement[]): LogEntry[] {
  const log: LogEntry[] = [];
  agreements.forEach((agreement, i) =>
    log.push(unwrap(appendEntry(log.at(-1) ?? null, { agreement, now: T0 + i * MINUTE }))),
  );
  return log;
}
