// The local OAPP ledger (OACoP §6.2, docs/decisions-oacop.md §A2): burn by signed envelope,
// verify by txId, read a DID's balance. No session: the signature is the authority, and a ledger
// is public. Burns are limited per client address and per burner DID (http/limits.ts).
import { Hono } from 'hono';
import { isDidKey } from '@shared/crypto/did-key';
import { CodedError, isCodedError } from '@shared/errors';
import type { Clock } from '../clock';
import type { HttpLimits } from '../http/limits';
import { rateLimit, TokenBucketLimiter, tooManyRequests } from '../http/rate-limit';
import { recordBurn } from '../oacop/ledger';
import type { AgoraRelay } from '../relay/agora-relay';
import type { OacopStore } from '../store/oacop-store';
import { agoraErrorResponse, readLimitedBody } from './events';

export function ledgerRoutes(relay: AgoraRelay, store: OacopStore, limits: Pick<HttpLimits, 'burnsPerAddress' | 'burnsPerDid'>, clock: Clock) {
  const perAddress = new TokenBucketLimiter({ ...limits.burnsPerAddress, clock });
  const perDid = new TokenBucketLimiter({ ...limits.burnsPerDid, clock });
  return new Hono()
    .post('/burns', rateLimit(perAddress), async (c) => {
      const body = await readLimitedBody(c);
      if ('error' in body) return agoraErrorResponse(c, body.error);
      try {
        return c.json(await recordBurn(relay, store, body.text, body.bytes, (did) => perDid.take(did)), 201);
      } catch (error) {
        if (isCodedError(error) && error.code === 'RATE_LIMITED') return tooManyRequests(c, error.details?.['retryAfterSeconds'] as number, 'burns from this DID');
        throw error;
      }
    })
    .get('/balances/:did', async (c) => {
      const did = c.req.param('did');
      if (!isDidKey(did)) throw new CodedError('INVALID_REQUEST', 'Balances are held by did:key DIDs.');
      return c.json({ did, balance: await store.balanceOf(did) }, 200);
    })
    .get('/burns/:txId', async (c) => {
      const record = await store.getBurn(c.req.param('txId'));
      if (!record) throw new CodedError('NOT_FOUND', `No transaction ${c.req.param('txId').slice(0, 256)}.`);
      return c.json(record, 200);
    });
}
