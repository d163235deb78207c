// GET /api/rooms/{id}/health: a room's last hour at a glance (shared/contract/agents.ts,
// RoomHealth; decisions-server.md §64). Any operator may read it; it changes nothing.
import { Hono } from 'hono';
import { RoomHealth } from '@shared/contract/agents';
import { CodedError } from '@shared/errors';
import { reply } from '../http/reply';
import { requireSession, type SessionVariables } from '../http/session';
import { suspendedByCredential } from '../rooms/agent-suspension';
import { healthWindow, roomHealth } from '../rooms/room-health';
import type { RoomRouteDeps } from './rooms';

export function roomHealthRoutes(deps: RoomRouteDeps) {
  const { store, clock } = deps;
  const reader = requireSession({ store, clock });
  const isSuspended = deps.isSuspended ?? suspendedByCredential(store.access);

  return new Hono<{ Variables: SessionVariables }>().get('/:id/health', reader, async (c) => {
    const roomId = c.req.param('id');
    if (!(await store.rooms.getRoom(roomId)))
      throw new CodedError('ROOM_NOT_FOUND', `There is no room "${roomId}".`, { roomId });
    const { since, now } = healthWindow(clock.now());
    const [activity, pending, ranked] = await Promise.all([
      store.rooms.roomActivity(roomId, since, now),
      store.rooms.listReviewItems(roomId, 'pending'),
      store.rooms.rejectsByAgent(since, roomId),
    ]);
    const agents = await Promise.all(ranked.map(async (a) => ({ ...a, suspended: await isSuspended(a.agentId) })));
    return reply(c, RoomHealth, roomHealth({ roomId, since, now, activity, pending, agents }), 200);
  });
}
