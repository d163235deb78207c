// Who may read a negotiation over /oap/negotiation/{id} (docs/decisions-negotiation.md, "Signed
// reads"): anyone when it is `public` (§3.7: every party declared its content public); else an
// operator session, or a request signed by one of its parties under RFC 9421 (Ed25519, keyid =
// the party's did:key) that is fresh and not seen before. An unknown id is refused exactly as a
// negotiation the caller may not read, so the answer says nothing about which ids exist. Signed
// reads are rate limited per address before the signature is checked and per signer after it; a
// nonce is remembered only once the signer is known to be a party (decisions-server.md §78).
import type { Context } from 'hono';
import type { DidSignatureCheck } from '@shared/crypto/signed-document';
import { CodedError } from '@shared/errors';
import { HTTP_SIGNATURE_CODES, verifyRequest } from '@shared/http-signature/request-signature';
import type { Clock } from '../clock';
import { rateLimited } from '../http/error-family';
import { clientAddress, type TokenBucketLimiter } from '../http/rate-limit';
import { sessionFromCookieHeader, type SessionDeps } from '../http/session';
import type { NegotiationRecord } from '../store/negotiation-store';
import { SeenNonces } from './seen-nonces';

/** How old a signed read may be; also how long its nonce is remembered. */
export const SIGNED_READ_MAX_AGE_SECONDS = 120;

export interface ReadAccessDeps {
  readonly session: SessionDeps;
  readonly clock: Clock;
  readonly check: DidSignatureCheck;
  /** How far ahead of this clock a signature's `created` may be. */
  readonly skewSeconds: number;
  readonly nonces?: SeenNonces;
  /** Signed reads per client address, before the signature is checked. */
  readonly perAddress?: TokenBucketLimiter;
  /** Signed reads per signer, once the signature verifies. */
  readonly perDid?: TokenBucketLimiter;
}

export type ReadGuard = (c: Context, record: NegotiationRecord | undefined) => Promise<NegotiationRecord>;

export function negotiationReadGuard(deps: ReadAccessDeps): ReadGuard {
  const nonces = deps.nonces ?? new SeenNonces();
  return async (c, record) => {
    if (record?.state.confidentiality === 'public') return record;
    const now = deps.clock.now();
    if (await sessionFromCookieHeader(deps.session.store, c.req.header('cookie'), now)) return found(record, c);
    const nowSeconds = Math.floor(now / 1000);
    const byAddress = deps.perAddress?.take(clientAddress(c));
    if (byAddress && !byAddress.ok) throw rateLimited(byAddress.retryAfterSeconds, 'signed reads from this address');
    const verdict = verifyRequest(
      { method: c.req.method, url: c.req.url, header: (name) => c.req.header(name) },
      { now: nowSeconds, maxAgeSeconds: SIGNED_READ_MAX_AGE_SECONDS, skewSeconds: deps.skewSeconds, check: deps.check },
    );
    if (!verdict.ok) throw new CodedError(verdict.error.code, verdict.error.message, verdict.error.details);
    const { keyid, nonce, staleAt } = verdict.value;
    const byDid = deps.perDid?.take(keyid);
    if (byDid && !byDid.ok) throw rateLimited(byDid.retryAfterSeconds, 'signed reads by this key');
    // The party first: a stranger's signatures never reach the nonce memory.
    if (record === undefined || !(record.state.parties as readonly string[]).includes(keyid)) {
      throw new CodedError(
        'NOT_A_PARTY',
        'Only the parties (or an operator) may read a negotiation that is not public.',
      );
    }
    const remembered = nonces.remember(keyid, nonce, staleAt, nowSeconds);
    if (!remembered.ok && remembered.reason === 'full') throw rateLimited(remembered.retryAfterSeconds, 'signed reads');
    if (!remembered.ok)
      throw new CodedError(
        HTTP_SIGNATURE_CODES.REPLAYED,
        'This signature was used before: sign each request with a new nonce.',
      );
    return record;
  };
}

function found(record: NegotiationRecord | undefined, c: Context): NegotiationRecord {
  if (!record) throw new CodedError('NOT_FOUND', `No negotiation ${c.req.param('id')?.slice(0, 80) ?? ''}.`);
  return record;
}
