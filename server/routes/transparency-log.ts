// The transparency log over HTTP (RFC 0002 §3.5, §6): entries in pages, one entry, an
// inclusion proof to the current head, and a party's signed redaction of non-material fields.
// Public: entries above `public` are logged with their terms redacted (decisions §16) and
// show a commitment to their negotiation id instead of the id (decisions, "Log commitments").
import { Hono } from 'hono';
import { LogEntryAnswer, LogPage, LogPageQuery, LogProof, Redacted } from '@shared/contract/negotiation';
import { CodedError, unwrap } from '@shared/errors';
import type { InclusionProof } from '@shared/negotiation/inclusion-proof';
import { linkOf, publishedEntry } from '@shared/negotiation/transparency-log';
import { reply } from '../http/reply';
import { readBodyJson } from '../http/request-body';
import type { NegotiationService } from '../negotiation/negotiation-service';
import { MAX_NEGOTIATION_BODY_BYTES } from './negotiation';

export const DEFAULT_LOG_PAGE = 100;
export const MAX_LOG_PAGE = 1000;

function indexParam(raw: string): number {
  if (!/^(0|[1-9][0-9]{0,14})$/.test(raw))
    throw new CodedError('INVALID_REQUEST', 'The index is a non-negative integer.');
  return Number(raw);
}

export function transparencyLogRoutes(service: NegotiationService) {
  const store = service.store;
  return new Hono()
    .get('/', async (c) => {
      const parsed = LogPageQuery.safeParse(c.req.query());
      if (!parsed.success) throw new CodedError('INVALID_REQUEST', `from is an index >= 0, limit 1–${MAX_LOG_PAGE}.`);
      const from = parsed.data.from ?? 0;
      const page = await store.logPage(from, parsed.data.limit ?? DEFAULT_LOG_PAGE);
      const last = page.entries.at(-1);
      const next = last !== undefined && last.index + 1 < page.size ? last.index + 1 : null;
      return reply(
        c,
        LogPage,
        { entries: page.entries.map(publishedEntry), size: page.size, head: page.head, next_from: next },
        200,
      );
    })
    .get('/:index', async (c) => {
      const index = indexParam(c.req.param('index'));
      const entry = await store.logEntry(index);
      if (!entry) throw new CodedError('LOG_INDEX_OUT_OF_RANGE', `The log has no entry ${index}.`);
      return reply(c, LogEntryAnswer, { entry: publishedEntry(entry), head: await store.logHead() }, 200);
    })
    .get('/:index/proof', async (c) => {
      const index = indexParam(c.req.param('index'));
      const entries = await store.logFrom(index);
      if (entries.length === 0) throw new CodedError('LOG_INDEX_OUT_OF_RANGE', `The log has no entry ${index}.`);
      // The same shape as shared inclusionProof (decisions §18): the links from the entry to the head.
      const proof: InclusionProof = { index, links: entries.map(linkOf) };
      const head = entries.at(-1)!;
      return reply(c, LogProof, { proof, head_hash: head.entry_hash, size: head.index + 1 }, 200);
    })
    .post('/:index/redact', async (c) => {
      const index = indexParam(c.req.param('index'));
      const entry = unwrap(await service.redact(index, await readBodyJson(c, MAX_NEGOTIATION_BODY_BYTES)));
      return reply(c, Redacted, { entry: publishedEntry(entry) }, 200);
    });
}
