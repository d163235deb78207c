// endReview against a stand-in for the server whose agent sends a candidate in the gap between
// the first settle and the switch to auto: nothing may be left waiting (decisions-web.md §47).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endReview } from './rooms-review-end';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function item(id: number) {
  return {
    id,
    roomId: 'demo',
    agentId: 'agent.researcher',
    taskId: 't-1',
    messageId: `m-${id}`,
    submittedAt: 1,
    status: 'pending',
    decidedBy: null,
    decidedByName: null,
    decidedAt: null,
    reason: null,
    raw: '{}',
    envelope: {},
  };
}

/** A room in review mode; `late` candidates arrive right after the first settle answers. */
function server(late: number) {
  const state = { moderation: 'review', pending: [item(1)], settled: [] as number[], calls: [] as string[] };
  let next = 2;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    state.calls.push(`${method} ${url}`);
    if (url.endsWith('/review/settle')) {
      const decided = state.pending.length;
      state.settled.push(...state.pending.map((i) => i.id));
      state.pending = [];
      if (state.calls.length === 1) for (let i = 0; i < late; i++) state.pending.push(item(next++));
      return json(200, { decision: 'approve', decided, refused: 0, skipped: 0, remaining: state.pending.length });
    }
    if (method === 'PATCH') {
      state.moderation = JSON.parse(init?.body as string).moderation;
      return json(200, { room: { id: 'demo', name: 'Demo', moderation: state.moderation, createdAt: 1 } });
    }
    if (url.includes('/review?status=pending')) return json(200, { items: state.pending });
    return json(404, { code: 'NOT_FOUND', message: 'no' });
  });
  return state;
}

afterEach(() => vi.unstubAllGlobals());

describe('endReview', () => {
  it('decides a candidate that arrived between the settle and the switch', async () => {
    const state = server(1);
    const room = await endReview('demo', { decision: 'approve' });
    expect(room.moderation).toBe('auto');
    expect(state.pending).toEqual([]);
    expect(state.settled).toEqual([1, 2]);
  });

  it('settles once when nothing arrived meanwhile', async () => {
    const state = server(0);
    await endReview('demo', { decision: 'approve' });
    expect(state.calls).toEqual([
      'POST /api/rooms/demo/review/settle',
      'PATCH /api/rooms/demo',
      'GET /api/rooms/demo/review?status=pending',
    ]);
  });
});
