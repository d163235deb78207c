// The local OAPP ledger (OACoP §6.2, docs/decisions-oacop.md §A2): burn by signed envelope,
// verify by txId. No session: the signature is the authority, and a ledger is public.
import { Hono } from 'hono';
import { CodedError } from '@shared/errors';
import { recordBurn } from '../oacop/ledger';
import type { AgoraRelay } from '../relay/agora-relay';
import type { OacopStore } from '../store/oacop-store';
import { agoraErrorResponse, readLimitedBody } from './events';

export function ledgerRoutes(relay: AgoraRelay, store: OacopStore) {
  return new Hono()
    .post('/burns', async (c) => {
      const body = await readLimitedBody(c);
      if ('error' in body) return agoraErrorResponse(c, body.error);
      return c.json(await recordBurn(relay, store, body.text, body.bytes), 201);
    })
    .get('/burns/:txId', async (c) => {
      const record = await store.getBurn(c.req.param('txId'));
      if (!record) throw new CodedError('NOT_FOUND', `No transaction ${c.req.param('txId').slice(0, 256)}.`);
      return c.json(record, 200);
    });
}
