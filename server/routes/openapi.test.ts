// GET /openapi.json is generated from shared/contract: every route the app registers is an
// operation of it and every operation is routed, and real answers parse with their declared schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AgoraErrorBody, CodedErrorBody } from '@shared/contract/errors';
import { OPERATIONS } from '@shared/contract/operations';
import { fullApp, type FullApp } from '../test-support/full-app';

let f: FullApp;
beforeAll(async () => {
  f = await fullApp();
});
afterAll(() => f.close());

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
}

/** Hono's route path as OpenAPI writes it: `:id` → `{id}`, the proxy's `*` → `{path}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');

function declared(method: string, path: string): z.ZodType {
  const op = OPERATIONS.find((o) => o.method === method && o.path === path);
  const schema = op && Object.values(op.responses)[0]?.schema;
  if (!schema) throw new Error(`no declared answer for ${method} ${path}`);
  return schema;
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with an operation for every route the app registers, and none for an unrouted one', async () => {
    const res = await f.app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Document;
    expect(doc.openapi).toBe('3.1.0');
    const routed = new Set(
      f.app.routes
        // Middleware is registered as ALL; GET /* is the SPA shell, not an API operation.
        .filter((r) => r.method !== 'ALL' && r.path !== '/*')
        .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`)),
    );
    expect([...routed].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((op) => !routed.has(op))).toEqual([]);
    expect(routed.size).toBeGreaterThan(60);
    for (const match of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      expect(doc.components.schemas).toHaveProperty(match[1]!);
  });

  it('declares answers that real answers parse with', async () => {
    const get = async (path: string, cookie?: string) => {
      const res = await f.app.request(path, cookie ? { headers: { cookie } } : {});
      return { status: res.status, body: (await res.json()) as unknown };
    };
    for (const [path, documented, cookie] of [
      ['/health', '/health'],
      ['/oap/manifest', '/oap/manifest'],
      ['/api/auth/challenge', '/api/auth/challenge'],
      ['/api/auth/session', '/api/auth/session', f.facilitator],
      ['/api/rooms', '/api/rooms', f.facilitator],
      ['/api/negotiations', '/api/negotiations', f.facilitator],
      ['/oap/transparency-log', '/oap/transparency-log'],
      ['/events?since=cur_0&timeout=0', '/events'],
      ['/ready', '/ready'],
      ['/openapi.json', '/openapi.json'],
      ['/agents', '/agents'],
      ['/api/ledger/balances/did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', '/api/ledger/balances/{did}'],
    ] as const) {
      const answer = await get(path, cookie);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      const parsed = declared('get', documented).safeParse(answer.body);
      expect({ path, issues: parsed.error?.issues ?? [] }).toEqual({ path, issues: [] });
    }
    const coded = await get('/api/rooms');
    expect(coded.status).toBe(401);
    expect(CodedErrorBody.safeParse(coded.body).success).toBe(true);
    const agora = await f.app.request('/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(AgoraErrorBody.safeParse(await agora.json()).success).toBe(true);
  });

  it('declares the console answers exactly, and answers with items parse with them', async () => {
    const write = { cookie: f.facilitator, origin: 'http://localhost', 'content-type': 'application/json' };
    const created = await f.app.request('/api/rooms', {
      method: 'POST',
      headers: write,
      body: JSON.stringify({ id: 'contract-room', name: 'Contract', moderation: 'review' }),
    });
    expect(created.status).toBe(201);
    expect((await f.app.request('/seed', { method: 'POST', headers: write })).status).toBe(200);
    const read = async (path: string, documented: string) => {
      const res = await f.app.request(path, { headers: { cookie: f.facilitator } });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const body = (await res.json()) as unknown;
      const parsed = declared('get', documented).safeParse(body);
      expect({ path, issues: parsed.error?.issues ?? [] }).toEqual({ path, issues: [] });
      return body as Record<string, unknown[]>;
    };
    // Items, not only empty lists: the room's creation is audited, the seed opens Agora threads.
    expect((await read('/api/rooms/contract-room/audit', '/api/rooms/{id}/audit')).entries).toHaveLength(1);
    // The relay's page is written by hand (each envelope as stored): it parses with EventPage too.
    expect((await read('/events?since=cur_0&timeout=0', '/events')).events!.length).toBeGreaterThan(0);
    const threads = (await read('/api/agora/threads', '/api/agora/threads')).threads as { id: string }[];
    expect(threads.length).toBeGreaterThan(0);
    await read(`/api/agora/threads/${threads[0]!.id}`, '/api/agora/threads/{id}');
    for (const [path, documented] of [
      ['/api/rooms/contract-room', '/api/rooms/{id}'],
      ['/api/rooms/contract-room/messages', '/api/rooms/{id}/messages'],
      ['/api/rooms/contract-room/agents', '/api/rooms/{id}/agents'],
      ['/api/rooms/contract-room/grants', '/api/rooms/{id}/grants'],
      ['/api/rooms/contract-room/tasks', '/api/rooms/{id}/tasks'],
      ['/api/rooms/contract-room/review', '/api/rooms/{id}/review'],
      ['/api/rooms/contract-room/health', '/api/rooms/{id}/health'],
      ['/api/scheduling/threads', '/api/scheduling/threads'],
      ['/api/tasks', '/api/tasks'],
      ['/api/services', '/api/services'],
      ['/api/services/watched', '/api/services/watched'],
      ['/api/external/threads', '/api/external/threads'],
      ['/api/external/negotiations', '/api/external/negotiations'],
    ] as const)
      await read(path, documented);
    const { services = [] } = await read('/api/services', '/api/services');
    expect(services.length).toBeGreaterThanOrEqual(2);
  });
});
