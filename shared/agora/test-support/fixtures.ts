// Deterministic parties and envelope builders for the Agora tests: keys from fixed seeds,
// times from a fixed epoch.
import { encodeDidKey } from '../../crypto/did-key';
import type { DidKey } from '../../crypto/did-key';
import { keyPairFromSeed } from '../../crypto/ed25519';
import type { KeyPair } from '../../crypto/ed25519';
import type { Envelope, MessageType, UnsignedEnvelope, UnsignedEnvelopeOf } from '../envelope';
import { signEnvelope } from '../sign-envelope';

export interface Party extends KeyPair {
  readonly did: DidKey;
}

export function party(seedByte: number): Party {
  const pair = keyPairFromSeed(new Uint8Array(32).fill(seedByte));
  return { ...pair, did: encodeDidKey(pair.publicKey) };
}

export const client = party(1);
export const agentA = party(2);
export const agentB = party(3);
export const stranger = party(4);

/** 2026-02-02T15:30:00Z, the spec example's `ts`. */
export const T0 = Date.UTC(2026, 1, 2, 15, 30, 0);
export const iso = (ms: number): string => new Date(ms).toISOString();

const payloads: { [T in MessageType]: UnsignedEnvelopeOf<T>['payload'] } = {
  REQUEST: {
    request_id: 'req_1',
    intent: 'translation.en_zh',
    params: { text: 'Hello world' },
    constraints: { max_cost_usd: 0.01 },
  },
  OFFER: { request_id: 'req_1', plan: 'Translate', price: { amount: 0.005, currency: 'USD' }, eta_seconds: 2 },
  ACCEPT: { request_id: 'req_1', accepted_at: '2026-02-02T15:31:00Z', terms: { price_usd: 0.005 } },
  RESULT: {
    request_id: 'req_1',
    status: 'success',
    output: { translation: '你好，世界' },
    artifacts: [],
    metrics: { latency_ms: 1200 },
  },
  ERROR: {
    code: 'INSUFFICIENT_BUDGET',
    message: 'Request budget too low for this intent',
    details: { min_required: 0.01 },
  },
  CANCEL: { request_id: 'req_1', reason: 'no longer needed' },
};

let counter = 0;

export interface Draft<T extends MessageType> {
  readonly from: Party;
  readonly to?: Party;
  readonly id?: string;
  readonly ts?: number;
  readonly thread?: string;
  readonly payload?: Partial<UnsignedEnvelopeOf<T>['payload']> & Record<string, unknown>;
  readonly meta?: { ttl?: number; hop?: number };
}

/** An unsigned envelope of `type` with the spec examples' payload, overridable field by field. */
export function draft<T extends MessageType>(type: T, d: Draft<T>): UnsignedEnvelopeOf<T> {
  counter += 1;
  return {
    version: '1.0',
    id: d.id ?? `msg_${type.toLowerCase()}_${counter}`,
    ts: iso(d.ts ?? T0),
    type,
    sender: { id: d.from.did, name: 'Test agent' },
    ...(d.to === undefined ? {} : { recipient: { id: d.to.did } }),
    payload: { ...payloads[type], ...d.payload },
    thread: { id: d.thread ?? 'thread_1' },
    ...(d.meta === undefined ? {} : { meta: d.meta }),
  } as unknown as UnsignedEnvelopeOf<T>;
}

/** A signed envelope (real signature, from the sender's key). */
export const signed = <T extends MessageType>(type: T, d: Draft<T>): Envelope =>
  signEnvelope(draft(type, d) as UnsignedEnvelope, d.from.secretKey);

/** An envelope with a placeholder `sig`, for the thread machine, which never verifies. */
export const unsignedAs = <T extends MessageType>(type: T, d: Draft<T>): Extract<Envelope, { type: T }> =>
  ({ ...draft(type, d), sig: 'unverified' }) as unknown as Extract<Envelope, { type: T }>;
