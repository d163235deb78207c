// The relay bench's parties (deterministic Ed25519 keys from a number, so the bench and its
// clients process derive the same ones) and freshly signed REQUEST envelopes.
import { createPrivateKey, createPublicKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import { encodeDidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { canonicalize } from '../shared/crypto/jcs';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface Party {
  readonly did: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

export function party(n: number): Party {
  const seed = new Uint8Array(32).fill(0).map((_, i) => (i === 0 ? n & 0xff : i === 1 ? n >> 8 : 7));
  const pair = keyPairFromSeed(seed);
  return {
    did: encodeDidKey(pair.publicKey),
    privateKey: createPrivateKey({
      key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seed)]),
      format: 'der',
      type: 'pkcs8',
    }),
    publicKey: createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, Buffer.from(pair.publicKey)]),
      format: 'der',
      type: 'spki',
    }),
  };
}

let counter = 0;
/** Ids carry the process id, so envelopes signed in the clients process never collide with the bench's. */
export function signedRequest(from: Party, to: Party | undefined, now: number) {
  counter++;
  const unsigned = {
    version: '1.0',
    id: `msg_bench_${process.pid}_${counter}`,
    ts: new Date(now).toISOString(),
    type: 'REQUEST',
    sender: { id: from.did, name: 'Bench client' },
    ...(to ? { recipient: { id: to.did } } : {}),
    payload: {
      request_id: `req_${counter}`,
      intent: 'translation.en_zh',
      params: { text: 'Hello world' },
      constraints: { max_cost_usd: 0.01 },
    },
    thread: { id: `thread_bench_${counter}` },
    meta: { ttl: 300, hop: 0 },
  };
  const canonical = Buffer.from(canonicalize(unsigned));
  const sig = nodeSign(null, canonical, from.privateKey);
  return {
    text: JSON.stringify({ ...unsigned, sig: sig.toString('base64url') }),
    canonical,
    sig,
    publicKey: from.publicKey,
  };
}
