// RFC 0002 §3.3 over HTTP: /oap/negotiation/open, /{id}/propose|accept|reject|withdraw,
// GET /{id} (the signed history), and the agreement's co-signature (decisions §13). Bodies are
// the signed documents of shared/negotiation/documents.ts, at most 64 KiB; every refusal is a
// coded error (status from http/errors.ts) and writes nothing. Agents authenticate by their
// signatures, not by a session; reads of a negotiation that is not `public` need a party's
// RFC 9421 signature or an operator session (negotiation/read-access.ts).
import { Hono } from 'hono';
import { AgreementAnswer, CosignAnswer, NegotiationDetail, Opened, StepAnswer } from '@shared/contract/negotiation';
import { CodedError, unwrap } from '@shared/errors';
import { negotiationCommitment } from '@shared/negotiation/field-commitments';
import { reply } from '../http/reply';
import { readBodyJson } from '../http/request-body';
import type { NegotiationService, PartyEvent } from '../negotiation/negotiation-service';
import {
  actionsByParty,
  agreementSigning,
  agreementVerdict,
  negotiationSummary,
} from '../negotiation/negotiation-views';
import { negotiationReadGuard } from '../negotiation/read-access';
import type { SessionDeps } from '../http/session';
import type { HttpLimits } from '../http/limits';
import { rateLimited } from '../http/error-family';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import type { NegotiationRecord } from '../store/negotiation-store';

export const MAX_NEGOTIATION_BODY_BYTES = 64 * 1024;

const EVENTS: readonly PartyEvent[] = ['propose', 'accept', 'reject', 'withdraw'];

/** The full record: what GET /oap/negotiation/{id} and GET /api/negotiations/{id} answer. */
export async function negotiationDetail(service: NegotiationService, record: NegotiationRecord) {
  const now = service.now();
  const agreement = record.state.agreement;
  const entry = record.logIndex === null ? undefined : await service.store.logEntry(record.logIndex);
  return {
    negotiation: negotiationSummary(record, now),
    history: record.state.history,
    agreement,
    agreement_verdict: agreementVerdict(agreement),
    signing: agreement === null ? null : agreementSigning(agreement),
    log: entry === undefined ? null : { index: entry.index, entry },
    limits: record.limits,
    available_actions: actionsByParty(record.state, now),
  };
}

export async function loadNegotiation(service: NegotiationService, id: string): Promise<NegotiationRecord> {
  const record = await service.store.get(id);
  if (!record) throw new CodedError('NOT_FOUND', `No negotiation ${id.slice(0, 80)}.`);
  return record;
}

export type OpenLimits = Pick<
  HttpLimits,
  'negotiationOpensPerAddress' | 'negotiationOpensPerDid' | 'signedReadsPerAddress' | 'signedReadsPerDid'
>;

export function negotiationRoutes(service: NegotiationService, session: SessionDeps, limits: OpenLimits) {
  const clock = { now: () => service.now() };
  // Every open may end in a permanent log entry: bounded per address, and per DID once signed.
  const opensPerAddress = new TokenBucketLimiter({ ...limits.negotiationOpensPerAddress, clock });
  const opensPerDid = new TokenBucketLimiter({ ...limits.negotiationOpensPerDid, clock });
  const readable = negotiationReadGuard({
    session,
    clock,
    check: service.check,
    skewSeconds: Math.ceil(service.limits.clockSkewMs / 1000),
    perAddress: new TokenBucketLimiter({ ...limits.signedReadsPerAddress, clock }),
    perDid: new TokenBucketLimiter({ ...limits.signedReadsPerDid, clock }),
  });
  const app = new Hono()
    .post('/open', rateLimit(opensPerAddress, clientAddress), async (c) => {
      const opened = await service.open(await readBodyJson(c, MAX_NEGOTIATION_BODY_BYTES), (did) =>
        opensPerDid.take(did),
      );
      if (!opened.ok && opened.error.code === 'RATE_LIMITED')
        throw rateLimited(opened.error.details?.['retryAfterSeconds'] as number, 'negotiations opened by this DID');
      const record = unwrap(opened);
      return reply(c, Opened, { negotiation: negotiationSummary(record, service.now()) }, 201);
    })
    .get('/:id', async (c) =>
      reply(
        c,
        NegotiationDetail,
        await negotiationDetail(service, await readable(c, await service.store.get(c.req.param('id')))),
        200,
      ),
    )
    .get('/:id/agreement', async (c) => {
      const record = await readable(c, await service.store.get(c.req.param('id')));
      const agreement = record.state.agreement;
      if (agreement === null)
        throw new CodedError('NOT_FOUND', 'This negotiation has no agreement (yet).', { state: record.state.status });
      const entry = record.logIndex === null ? undefined : await service.store.logEntry(record.logIndex);
      return reply(
        c,
        AgreementAnswer,
        {
          agreement,
          verdict: agreementVerdict(agreement),
          signing: agreementSigning(agreement),
          log: entry ? { index: entry.index, entry } : null,
          // What a non-public entry shows instead of the negotiation id, and how a party opens it.
          log_commitment: negotiationCommitment(agreement),
        },
        200,
      );
    })
    .post('/:id/agreement/cosign', async (c) => {
      const body = await readBodyJson(c, MAX_NEGOTIATION_BODY_BYTES);
      const applied = unwrap(await service.cosign(c.req.param('id'), body));
      const agreement = applied.record.state.agreement;
      return reply(
        c,
        CosignAnswer,
        {
          negotiation: negotiationSummary(applied.record, service.now()),
          agreement,
          verdict: agreementVerdict(agreement),
          log_entry: applied.entry ?? null,
        },
        200,
      );
    });
  for (const event of EVENTS) {
    app.post(`/:id/${event}`, async (c) => {
      const body = await readBodyJson(c, MAX_NEGOTIATION_BODY_BYTES);
      const applied = unwrap(await service.apply(c.req.param('id'), event, body));
      return reply(
        c,
        StepAnswer,
        {
          negotiation: negotiationSummary(applied.record, service.now()),
          ...(applied.entry ? { log_entry: applied.entry } : {}),
        },
        200,
      );
    });
  }
  return app;
}
