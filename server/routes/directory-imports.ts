// /api/directory/imports: outside A2A agents imported into the directory by the URL of their Agent
// Card (decisions-mcp.md §9–§11). The card is fetched through the external services' guarded
// fetcher (public addresses only unless ALLOW_PRIVATE_SERVICE_URLS=1, no redirects, a time and a
// byte cap: decisions-server.md §41), checked with ImportedAgentCard, and only then stored and
// audited: a card that fails any step changes nothing. Writes need the facilitator role (and CSRF,
// app.ts) and are bounded per client address and per facilitator DID.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import {
  ImportDone,
  ImportedAgentCard,
  ImportedAgentList,
  ImportInput,
  MAX_AGENT_CARD_BYTES,
  MAX_CARD_URL_LENGTH,
  MAX_IMPORTED_AGENTS,
} from '@shared/contract/directory-imports';
import { CodedError } from '@shared/errors';
import type { ServiceFetcher } from '../external/service-fetcher';
import { rateLimited } from '../http/error-family';
import type { HttpLimits } from '../http/limits';
import { normaliseHttpUrl } from '../http/outbound-url';
import { clientAddress, rateLimit, TokenBucketLimiter } from '../http/rate-limit';
import { reply } from '../http/reply';
import { jsonBody } from '../http/request-body';
import { requireSession, type SessionDeps } from '../http/session';
import type { ImportedAgent } from '../store/agent-import-store';

/** `{ url }`: a URL of at most 2048 characters and the JSON around it. */
const MAX_IMPORT_BODY_BYTES = 4 * 1024;
/** A card is one small document: it answers in seconds or not at all. */
const CARD_TIMEOUT_MS = 10_000;

export type ImportLimits = Pick<HttpLimits, 'importsPerAddress' | 'importsPerDid'>;

/** A card's URL (server/http/outbound-url.ts), at most MAX_CARD_URL_LENGTH long. */
export const normaliseCardUrl = (raw: string): string | undefined => normaliseHttpUrl(raw, MAX_CARD_URL_LENGTH);

const view = (a: ImportedAgent) => ({
  id: a.id,
  url: a.url,
  name: a.name,
  card: a.card,
  importedBy: a.importedBy,
  importedAt: a.importedAt,
  lastFetchedAt: a.lastFetchedAt,
});

const notPublic = (url: string, why: string) =>
  new CodedError(
    'CARD_URL_NOT_PUBLIC',
    `${url} is not on a public address (${why}), so it is not fetched. An administrator may set ALLOW_PRIVATE_SERVICE_URLS=1 for a local setup.`,
    { reason: 'url_not_public' },
  );

/**
 * The card at `url` as ImportedAgentCard parsed it, or a coded error saying why not: the guard
 * refused the address, nothing answered, the answer was too large, or it is not a card.
 */
export async function fetchAgentCard(outbound: ServiceFetcher, url: string): Promise<ImportedAgentCard> {
  const host = new URL(url).host;
  try {
    await outbound.admit(url);
  } catch (error) {
    if (error instanceof CodedError && error.details?.reason === 'url_not_public')
      throw notPublic(url, 'checked before fetching');
    throw error;
  }
  let answer;
  try {
    answer = await outbound.request({ id: 'a2a-import', name: host, baseUrl: url, origin: 'console' }, '', {
      timeoutMs: CARD_TIMEOUT_MS,
      maxBytes: MAX_AGENT_CARD_BYTES,
    });
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    const reason = typeof error.details?.reason === 'string' ? error.details.reason : 'service_unavailable';
    if (reason === 'url_not_public') throw notPublic(url, 'checked when connecting');
    if (reason === 'too_large')
      throw new CodedError(
        'CARD_TOO_LARGE',
        `${host} sent more than ${MAX_AGENT_CARD_BYTES / 1024} KiB, more than an Agent Card this console imports.`,
        { reason },
      );
    if (reason === 'not_json' || reason === 'too_deep')
      throw new CodedError('CARD_INVALID', `What ${host} sent is not JSON, so it is not an A2A Agent Card.`, {
        reason,
      });
    const why =
      reason === 'timeout'
        ? 'no answer in time'
        : reason === 'redirect'
          ? 'it answered with a redirect, which is not followed: import the URL it redirects to'
          : 'nothing answered';
    throw new CodedError('CARD_UNREACHABLE', `${host} cannot be reached (${why}); nothing was imported.`, { reason });
  }
  if (answer.status < 200 || answer.status > 299)
    throw new CodedError(
      'CARD_UNREACHABLE',
      `${host} answered ${answer.status} for this URL, not a card; check the address.`,
      { reason: 'status', status: answer.status },
    );
  const parsed = ImportedAgentCard.safeParse(answer.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message }));
    const first = issues[0]!;
    throw new CodedError(
      'CARD_INVALID',
      `What ${host} sent is not an A2A Agent Card this console imports: ${first.path || '(the document)'} ${first.message}.`,
      { reason: 'not_a_card', issues },
    );
  }
  return parsed.data;
}

export function directoryImportRoutes(outbound: ServiceFetcher, session: SessionDeps, limits: ImportLimits) {
  const store = session.store.agentImports;
  const perAddress = new TokenBucketLimiter({ ...limits.importsPerAddress, clock: session.clock });
  const perDid = new TokenBucketLimiter({ ...limits.importsPerDid, clock: session.clock });
  const reader = requireSession(session);
  const facilitator = requireSession(session, 'facilitator');
  const byAddress = rateLimit(perAddress, clientAddress);
  const spend = (did: string) => {
    const verdict = perDid.take(did);
    if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'imports by this operator');
  };
  const audit = (actorDid: string, action: string, agent: ImportedAgent, extra: Record<string, unknown> = {}) =>
    session.store.access.appendAudit({
      at: session.clock.now(),
      actorDid,
      action,
      roomId: null,
      messageId: null,
      details: { agentId: agent.id, name: agent.name, url: agent.url, ...extra },
    });

  return new Hono()
    .get('/', reader, async (c) =>
      reply(
        c,
        ImportedAgentList,
        { imports: (await store.listImports()).map(view), maxImports: MAX_IMPORTED_AGENTS },
        200,
      ),
    )
    .post('/', byAddress, facilitator, jsonBody(ImportInput, { maxBytes: MAX_IMPORT_BODY_BYTES }), async (c) => {
      const { did } = c.get('session');
      spend(did);
      const url = normaliseCardUrl(c.req.valid('json').url);
      if (!url)
        throw new CodedError(
          'INVALID_REQUEST',
          'The card URL must be an http(s) address without a user name, password or #fragment.',
          { reason: 'url_invalid' },
        );
      const known = (await store.listImports()).some((a) => a.url === url);
      if (!known && (await store.countImports()) >= MAX_IMPORTED_AGENTS)
        throw new CodedError(
          'CONFLICT',
          `There are ${MAX_IMPORTED_AGENTS} imported agents already, the most this console keeps; remove one first.`,
          { reason: 'too_many_imports' },
        );
      const card = await fetchAgentCard(outbound, url);
      const now = session.clock.now();
      const { agent, refreshed } = await store.putImport({
        id: `a2a_${randomUUID()}`,
        url,
        name: card.name,
        card,
        importedBy: did,
        importedAt: now,
        lastFetchedAt: now,
      });
      await audit(did, 'agent.import', agent, { refreshed, skills: card.skills.length });
      return reply(c, ImportDone, { agent: view(agent), refreshed }, refreshed ? 200 : 201);
    })
    .delete('/:id', byAddress, facilitator, async (c) => {
      const { did } = c.get('session');
      spend(did);
      const removed = await store.removeImport(c.req.param('id'));
      if (!removed) throw new CodedError('NOT_FOUND', 'No such imported agent; it may have been removed already.');
      await audit(did, 'agent.import_remove', removed);
      return c.body(null, 204);
    });
}
