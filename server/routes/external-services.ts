// External relays and negotiation services: the registry the settings screen edits
// (/api/services), the proxy that forwards what the browser signed to the chosen service byte for
// byte and answers with what the service answered, as JSON re-serialised here
// (/api/external/:serviceId/events, /api/external/:serviceId/oap/…), and the console's views
// over what the bridge fetched (/api/external/threads, /api/external/negotiations).
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { JSONValue } from 'hono/utils/types';
import {
  BridgedThreadDetail,
  BridgedThreadList,
  ExternalNegotiation,
  ExternalNegotiationList,
  ServiceAdded,
  ServiceInput,
  ServiceList,
  WatchedDid,
  WatchedInput,
  WatchedList,
} from '@shared/contract/console';
import { CodedError } from '@shared/errors';
import { replayHistory } from '@shared/negotiation/replay';
import type { NegotiationLimits } from '@shared/negotiation/manifest';
import { foldBridgedThread, foldBridgedThreads } from '../external/bridged-threads';
import type { RelayBridge } from '../external/relay-bridge';
import type { ServiceAnswer } from '../external/service-fetcher';
import { normaliseBaseUrl } from '../external/services-config';
import { reply } from '../http/reply';
import { readBodyBytes, readBodyJson } from '../http/request-body';
import { sandboxedAnswers } from '../http/sandboxed-answers';
import { requireSession, type SessionDeps } from '../http/session';
import type { ExternalService } from '../store/service-registry-store';

/** The built-in services are always the first entries and cannot be removed. */
export const BUILTIN_SERVICES = [
  { id: 'builtin-relay', name: 'Built-in relay', kind: 'relay', readOnly: false },
  { id: 'builtin-negotiation', name: 'Built-in negotiation service', kind: 'negotiation', readOnly: false },
] as const;

const MAX_FORWARD_BYTES = 256 * 1024;
/** A service or a watched DID is a few hundred bytes; strict UTF-8 JSON (http/request-body.ts). */
const MAX_SETTINGS_BODY_BYTES = 16 * 1024;
// An Ed25519 did:key that decodes (the multicodec and key length checked), as the relay requires of sender.id.

export function externalServiceRoutes(bridge: RelayBridge, session: SessionDeps) {
  const registry = session.store.services;
  const describe = (s: ExternalService) => ({
    ...s,
    builtin: false,
    removable: s.origin === 'console',
    status: bridge.status.get(s.id),
  });
  const builtins = (selfUrl: string) =>
    BUILTIN_SERVICES.map((b) => ({
      ...b,
      baseUrl: selfUrl,
      origin: 'builtin' as const,
      createdAt: 0,
      builtin: true,
      removable: false,
      status: {
        state: 'up' as const,
        since: 0,
        lastOkAt: session.clock.now(),
        lastError: null,
        failures: 0,
        nextRetryAt: null,
      },
    }));
  const serviceOf = async (id: string, kind: ExternalService['kind']): Promise<ExternalService> => {
    const service = await registry.getService(id);
    if (!service) throw new CodedError('NOT_FOUND', `No external service ${id.slice(0, 80)}.`);
    if (service.kind !== kind)
      throw new CodedError('INVALID_REQUEST', `${service.name} is a ${service.kind} service, not a ${kind}.`, {
        reason: 'service_kind_mismatch',
      });
    return service;
  };

  /**
   * Forwards the request body unchanged; answers with the service's status and its answer as
   * JSON this server serialised (the service's bytes, type and headers never reach the browser),
   * or a coded 502/503 (decisions-server.md §40).
   */
  const forward = async (c: Context, service: ExternalService, path: string): Promise<ServiceAnswer> => {
    const write = c.req.method !== 'GET';
    if (write && service.readOnly) {
      throw new CodedError('SERVICE_READ_ONLY', `${service.name} is read-only here: nothing is sent to it.`, {
        reason: 'service_read_only',
        service: service.id,
      });
    }
    const body = write ? await readBodyBytes(c, MAX_FORWARD_BYTES) : undefined;
    let answer: ServiceAnswer;
    try {
      answer = await bridge.outbound.request(service, path, {
        method: c.req.method,
        ...(body ? { body, contentType: c.req.header('content-type') ?? 'application/json' } : {}),
      });
    } catch (error) {
      bridge.reportFailure(service.id, error);
      throw error;
    }
    bridge.status.ok(service.id);
    if (write && service.kind === 'relay') void bridge.refresh();
    return answer;
  };

  const reader = requireSession(session);
  const facilitator = requireSession(session, 'facilitator');
  const services = new Hono()
    .get('/', reader, async (c) => {
      const self = new URL(c.req.url).origin;
      return reply(
        c,
        ServiceList,
        {
          services: [...builtins(self), ...(await registry.listServices()).map(describe)],
          watched: await registry.listWatched(),
        },
        200,
      );
    })
    .post('/', facilitator, async (c) => {
      const parsed = ServiceInput.safeParse(await readBodyJson(c, MAX_SETTINGS_BODY_BYTES));
      if (!parsed.success)
        throw new CodedError(
          'INVALID_REQUEST',
          'A service needs a name (1–80 characters), a url, a kind (relay or negotiation) and readOnly (true or false).',
        );
      const baseUrl = normaliseBaseUrl(parsed.data.url);
      if (!baseUrl)
        throw new CodedError('INVALID_REQUEST', 'The URL must be http(s), without credentials, query or fragment.', {
          reason: 'url_invalid',
        });
      await bridge.outbound.admit(baseUrl);
      const existing = await registry.listServices();
      if (existing.some((s) => s.baseUrl === baseUrl && s.kind === parsed.data.kind))
        throw new CodedError('CONFLICT', `A ${parsed.data.kind} at ${baseUrl} is configured already.`, {
          reason: 'service_exists',
        });
      const service = await registry.putService({
        id: `svc_${randomUUID().slice(0, 8)}`,
        name: parsed.data.name,
        baseUrl,
        kind: parsed.data.kind,
        readOnly: parsed.data.readOnly ?? false,
        origin: 'console',
        createdAt: session.clock.now(),
      });
      await bridge.check(service);
      void bridge.refresh();
      return reply(c, ServiceAdded, { service: describe(service) }, 201);
    })
    .delete('/:id', facilitator, async (c) => {
      const service = await registry.getService(c.req.param('id'));
      if (!service) throw new CodedError('NOT_FOUND', 'No such service.');
      if (service.origin !== 'console')
        throw new CodedError(
          'FORBIDDEN',
          'This service comes from EXTERNAL_SERVICES; change the environment to remove it.',
          { reason: 'service_from_env' },
        );
      await registry.removeService(service.id);
      void bridge.refresh();
      return c.body(null, 204);
    })
    .get('/watched', reader, async (c) => reply(c, WatchedList, { watched: await registry.listWatched() }, 200))
    .post('/watched', facilitator, async (c) => {
      const parsed = WatchedInput.safeParse(await readBodyJson(c, MAX_SETTINGS_BODY_BYTES));
      if (!parsed.success) throw new CodedError('INVALID_REQUEST', 'did must be an Ed25519 did:key.');
      await registry.addWatched(parsed.data.did, session.clock.now());
      void bridge.refresh();
      return reply(c, WatchedList, { watched: await registry.listWatched() }, 200);
    })
    .delete('/watched/:did', facilitator, async (c) => {
      const did = WatchedDid.safeParse(c.req.param('did'));
      if (!did.success) throw new CodedError('INVALID_REQUEST', 'did must be an Ed25519 did:key.');
      await registry.removeWatched(did.data);
      void bridge.refresh();
      return reply(c, WatchedList, { watched: await registry.listWatched() }, 200);
    });

  const external = new Hono()
    .use('*', sandboxedAnswers())
    .get('/threads', reader, async (c) => {
      const [rows, list] = await Promise.all([registry.listBridged({ limit: 20_000 }), registry.listServices()]);
      const byId = new Map(list.map((s) => [s.id, s]));
      const threads = foldBridgedThreads(rows)
        .filter((t) => byId.has(t.serviceId))
        .map((t) => ({
          ...t,
          source: {
            id: t.serviceId,
            name: byId.get(t.serviceId)!.name,
            readOnly: byId.get(t.serviceId)!.readOnly,
            status: bridge.status.get(t.serviceId),
          },
        }));
      return reply(c, BridgedThreadList, { threads }, 200);
    })
    .get('/negotiations', reader, async (c) => {
      const list = new Map((await registry.listServices()).map((s) => [s.id, s]));
      const known = (await registry.listNegotiations()).filter((n) => list.has(n.serviceId)).slice(0, 200);
      const negotiations = await Promise.all(
        known.map(async (n) => negotiationView(bridge, list.get(n.serviceId)!, n.negotiationId)),
      );
      return reply(c, ExternalNegotiationList, { negotiations }, 200);
    })
    .get('/:serviceId/threads/:threadId', reader, async (c) => {
      const service = await serviceOf(c.req.param('serviceId'), 'relay');
      const rows = await registry.listBridged({
        serviceId: service.id,
        threadId: c.req.param('threadId'),
        limit: 1000,
      });
      if (rows.length === 0)
        throw new CodedError('NOT_FOUND', `No thread ${c.req.param('threadId').slice(0, 256)} from ${service.name}.`);
      const { thread, events } = foldBridgedThread(service.id, c.req.param('threadId'), rows);
      return reply(
        c,
        BridgedThreadDetail,
        {
          thread,
          events,
          source: {
            id: service.id,
            name: service.name,
            readOnly: service.readOnly,
            status: bridge.status.get(service.id),
          },
        },
        200,
      );
    })
    .post('/:serviceId/events', facilitator, async (c) =>
      answerWith(c, await forward(c, await serviceOf(c.req.param('serviceId'), 'relay'), '/events')),
    )
    .get('/:serviceId/oap/*', reader, async (c) => forwardNegotiation(c))
    .post('/:serviceId/oap/*', facilitator, async (c) => forwardNegotiation(c));

  async function forwardNegotiation(c: Context): Promise<Response> {
    const service = await serviceOf(c.req.param('serviceId') ?? '', 'negotiation');
    const path = c.req.path.slice(c.req.path.indexOf('/oap/'));
    if (
      !/^\/oap\/(manifest|negotiation\/[A-Za-z0-9_.:-]{1,128}(\/[a-z/]{1,40})?|transparency-log[A-Za-z0-9/]{0,40})$/.test(
        path,
      )
    )
      throw new CodedError('NOT_FOUND', 'Only the RFC 0002 routes are forwarded.');
    const query = new URL(c.req.url).search;
    const answer = await forward(c, service, path + query);
    const ok = answer.status >= 200 && answer.status <= 299;
    // Remember the negotiations the console takes part in, to list them (GET /negotiations).
    const id = /^\/oap\/negotiation\/([^/]+)/.exec(path)?.[1];
    if (ok && id !== undefined && id !== 'open')
      await registry.rememberNegotiation(service.id, id, session.clock.now());
    if (ok && path === '/oap/negotiation/open') {
      const opened = answer.body as { negotiation?: { id?: unknown } } | undefined;
      if (typeof opened?.negotiation?.id === 'string')
        await registry.rememberNegotiation(service.id, opened.negotiation.id, session.clock.now());
    }
    return answerWith(c, answer);
  }

  return { services, external };
}

/**
 * The service's answer re-serialised here; its status kept (a service never redirects the browser).
 * c.json, not reply: the body is the service's, not built here, so no schema of ours types it
 * (ForwardedAnswer, decisions-server.md §40); the browser parses what it reads of it.
 */
function answerWith(c: Context, answer: ServiceAnswer): Response {
  if (answer.body === undefined) return c.body(null, answer.status as StatusCode);
  return c.json(answer.body as JSONValue, answer.status as ContentfulStatusCode);
}

/** One negotiation from its service, its signed history replayed here before it is called verified. */
async function negotiationView(bridge: RelayBridge, service: ExternalService, id: string) {
  const source = {
    id: service.id,
    name: service.name,
    readOnly: service.readOnly,
    status: bridge.status.get(service.id),
  };
  try {
    const res = await bridge.outbound.request(service, `/oap/negotiation/${encodeURIComponent(id)}`, {
      timeoutMs: 10_000,
    });
    if (res.status < 200 || res.status > 299)
      return { id, source, negotiation: null, verified: false, reason: `answered ${res.status}` };
    bridge.status.ok(service.id);
    const detail = (res.body ?? {}) as {
      negotiation?: Record<string, unknown>;
      history?: unknown[];
      limits?: NegotiationLimits;
    };
    const replay =
      Array.isArray(detail.history) && detail.limits ? replayHistory(detail.history, detail.limits) : undefined;
    const verified = replay?.ok === true && replay.value.status === detail.negotiation?.state;
    // The service's summary, as the contract declares it or null (ExternalNegotiation): one odd
    // answer must not make the whole list unreadable.
    const negotiation = ExternalNegotiation.shape.negotiation.parse(detail.negotiation ?? null);
    return {
      id,
      source: { ...source, status: bridge.status.get(service.id) },
      negotiation,
      verified,
      reason: verified ? null : replay && !replay.ok ? replay.error.code : 'history_mismatch',
    };
  } catch (error) {
    bridge.reportFailure(service.id, error);
    return {
      id,
      source: { ...source, status: bridge.status.get(service.id) },
      negotiation: null,
      verified: false,
      reason: 'service_unavailable',
    };
  }
}
