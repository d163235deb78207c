// The local OAPP ledger (OACoP §6.2, docs/decisions-oacop.md §A2): burn by signed envelope,
// verify by txId, read a DID's balance. No session: the signature is the authority, and a ledger
// is public. Burns are limited per client address and per burner DID (http/limits.ts).
import { Hono } from 'hono';
import { isDidKey } from '@shared/crypto/did-key';
import { Balance, BurnRecord } from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import type { Clock } from '../clock';
import type { HttpLimits } from '../http/limits';
import { agoraErrors } from '../http/error-family';
import { rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { readBodyText } from '../http/request-body';
import { recordBurn } from '../oacop/ledger';
import { MAX_ENVELOPE_BYTES, type AgoraRelay } from '../relay/agora-relay';
import type { OacopStore } from '../store/oacop-store';

export function ledgerRoutes(
  relay: AgoraRelay,
  store: OacopStore,
  limits: Pick<HttpLimits, 'burnsPerAddress' | 'burnsPerDid'>,
  clock: Clock,
) {
  const perAddress = new TokenBucketLimiter({ ...limits.burnsPerAddress, clock });
  const perDid = new TokenBucketLimiter({ ...limits.burnsPerDid, clock });
  return (
    new Hono()
      // A burn is a signed Agora envelope, so its refusals take the relay's shape (http/error-family.ts).
      .post('/burns', agoraErrors, rateLimit(perAddress), async (c) => {
        const body = await readBodyText(c, MAX_ENVELOPE_BYTES);
        return reply(
          c,
          BurnRecord,
          await recordBurn(relay, store, body.text, body.bytes, (did) => perDid.take(did)),
          201,
        );
      })
      .get('/balances/:did', async (c) => {
        const did = c.req.param('did');
        if (!isDidKey(did)) throw new CodedError('INVALID_REQUEST', 'Balances are held by did:key DIDs.');
        return reply(c, Balance, { did, balance: await store.balanceOf(did) }, 200);
      })
      .get('/burns/:txId', async (c) => {
        const record = await store.getBurn(c.req.param('txId'));
        if (!record) throw new CodedError('NOT_FOUND', `No transaction ${c.req.param('txId').slice(0, 256)}.`);
        return reply(c, BurnRecord, record, 200);
      })
  );
}
