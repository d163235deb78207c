// Trust for bridged envelopes: an envelope fetched from an external relay goes
// through the very pipeline the built-in relay runs on POST /events (checkIncoming: version,
// schema, signature against sender.id's did:key, ±5 min window, replay, meta.ttl), at the
// bridge's clock when it arrives here. Whatever fails is kept as untrusted with its reason.
import { createHash } from 'node:crypto';
import { checkIncoming } from '@shared/agora/check-incoming';
import type { DidVerifier } from '../crypto/node-verifier';
import type { NewBridgedEnvelope } from '../store/service-registry-store';

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export type BridgeVerdict =
  | { readonly kind: 'store'; readonly envelope: NewBridgedEnvelope }
  /** The same signed envelope again (another feed, an overlapping page): nothing to store. */
  | { readonly kind: 'duplicate' };

const field = (raw: unknown, key: string): unknown =>
  raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)[key] : undefined;

const usableId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 256;

export async function verifyBridged(
  raw: unknown,
  context: {
    readonly now: number;
    readonly verifier: DidVerifier;
    readonly knownDigest: (id: string) => Promise<string | null | undefined>;
  },
): Promise<BridgeVerdict> {
  const id = field(raw, 'id');
  const known = usableId(id) ? await context.knownDigest(id) : undefined;
  let json = '';
  const checked = checkIncoming(raw, {
    now: context.now,
    seen: { lookup: (candidate) => (candidate === id && typeof known === 'string' ? known : undefined) },
    verify: (did, message, signature) => context.verifier.verify(did, message, signature),
    // The signature check's JCS pass gives the canonical text: it is both the digest's input and what is stored.
    digest: (canonical) => sha256Hex((json = canonical)),
  });
  const threadId = field(field(raw, 'thread'), 'id');
  if (checked.ok) {
    if (checked.value.duplicate) return { kind: 'duplicate' };
    return {
      kind: 'store',
      envelope: {
        envelopeId: checked.value.envelope.id,
        threadId: checked.value.envelope.thread.id,
        json,
        digest: checked.value.digest,
        trusted: true,
        reason: null,
        receivedAt: context.now,
      },
    };
  }
  // Already stored under this id (trusted or not): a second reading changes nothing, and an
  // id_conflict must not replace what was first seen.
  if (known !== undefined) return { kind: 'duplicate' };
  const text = JSON.stringify(raw) ?? 'null';
  return {
    kind: 'store',
    envelope: {
      envelopeId: usableId(id) ? id : `digest:${sha256Hex(text)}`,
      threadId: usableId(threadId) ? threadId : null,
      json: text,
      digest: null,
      trusted: false,
      reason: String(checked.error.details?.reason ?? checked.error.code),
      receivedAt: context.now,
    },
  };
}
