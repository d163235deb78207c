// /api/rooms: the console's view of Agent Ops Rooms. History with a strictly ordered cursor,
// presence, grants and the review queue; facilitators create rooms, set moderation and decide
// review items. Publishing (say, task, grants) goes over MQTT at /mqtt, not here.
import { Hono } from 'hono';
import { ROOM_TOPIC_KINDS, AGENT_TOPIC_KINDS } from '@shared/aor/topics';
import {
  AuditPage,
  CreateRoomBody,
  GrantList,
  MessagePage,
  PresenceList,
  RejectBody,
  SettleAnswer,
  SettleBody,
  SETTLE_MAX,
  ReviewDecision,
  ReviewList,
  RoomAnswer,
  RoomList,
  RoomSettingsBody,
  TaskGoalList,
} from '@shared/contract/rooms';
import { CodedError } from '@shared/errors';
import { decidedConflict } from '../auth/decided-conflict';
import { operatorName } from '../auth/operator-name';
import type { Clock } from '../clock';
import type { Gateway } from '../gateway/gateway';
import { reply } from '../http/reply';
import { jsonBody } from '../http/request-body';
import { requireSession, type SessionVariables } from '../http/session';
import type { IsSuspended } from '../rooms/agent-suspension';
import type { PresenceTracker } from '../rooms/presence-tracker';
import type { RoomRegistry } from '../rooms/room-registry';
import { readTaskGoals } from '../rooms/task-goals';
import type { ReviewItem, StoredRoomMessage, Store, TopicKind } from '../store/store';

export interface RoomRouteDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly rooms: RoomRegistry;
  readonly presence: PresenceTracker;
  readonly gateway: Gateway;
  /** Whether an agent is suspended (the health panel's ranking); default: its credential says. */
  readonly isSuspended?: IsSuspended;
}

const MAX_PAGE = 500;
const TOPIC_KINDS: readonly TopicKind[] = [...ROOM_TOPIC_KINDS, ...AGENT_TOPIC_KINDS];
const decoder = new TextDecoder();

/** A stored message as the console shows it: the exact text, and the envelope when it parses. */
export function messageView(m: StoredRoomMessage) {
  const raw = decoder.decode(m.payload);
  let envelope: unknown = null;
  try {
    envelope = JSON.parse(raw);
  } catch {
    envelope = null;
  }
  return {
    cursor: m.cursor,
    roomId: m.roomId,
    topic: m.topic,
    topicKind: m.topicKind,
    topicAgentId: m.topicAgentId,
    messageId: m.messageId,
    type: m.type,
    fromId: m.fromId,
    receivedAt: m.receivedAt,
    raw,
    envelope,
  };
}

function reviewView(item: ReviewItem, decidedByName: string | null) {
  const { payload, ...rest } = item;
  const raw = decoder.decode(payload);
  let envelope: unknown = null;
  try {
    envelope = JSON.parse(raw);
  } catch {
    envelope = null;
  }
  return { ...rest, decidedByName, raw, envelope };
}

function intParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new CodedError('INVALID_REQUEST', `${name} must be a non-negative integer.`);
  return Number(value);
}

function listParam(values: string[] | undefined): string[] | undefined {
  const list = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}

export function roomRoutes(deps: RoomRouteDeps) {
  const { store, clock, rooms, presence, gateway } = deps;
  const reader = requireSession({ store, clock });
  const facilitator = requireSession({ store, clock }, 'facilitator');

  /**
   * Items never move between rooms, so checking membership before deciding is race-free: an item
   * this room never held is 404; one already decided is 409 saying who decided it and when.
   */
  const requirePendingItem = async (roomId: string, itemId: number) => {
    const item = await store.rooms.getReviewItem(roomId, itemId);
    if (!item) throw new CodedError('NOT_FOUND', `Room "${roomId}" holds no review item ${itemId}.`);
    if (item.status !== 'pending') throw await alreadyDecided(item);
  };
  /** After a decision came back empty (another facilitator won the race meanwhile). */
  const lostRace = async (roomId: string, itemId: number) => {
    const item = await store.rooms.getReviewItem(roomId, itemId);
    if (!item) return new CodedError('NOT_FOUND', `Room "${roomId}" holds no review item ${itemId}.`);
    // Still pending: nobody won, the claim itself failed; deciding again is safe.
    if (item.status === 'pending') return new CodedError('CONFLICT', 'The item could not be claimed; try again.');
    return alreadyDecided(item);
  };
  const deciderName = async (did: string | null) => (did === null ? null : operatorName(store, did));
  const alreadyDecided = (item: ReviewItem) => decidedConflict(store, item.status, item.decidedBy, item.decidedAt);

  const requireRoom = async (id: string) => {
    const room = await store.rooms.getRoom(id);
    if (!room) throw new CodedError('NOT_FOUND', `There is no room "${id}".`);
    return room;
  };

  return new Hono<{ Variables: SessionVariables }>()
    .get('/', reader, async (c) => {
      const list = await store.rooms.listRooms();
      return reply(
        c,
        RoomList,
        {
          rooms: list.map((room) => {
            const agents = presence.list(room.id);
            return {
              ...room,
              agentsPresent: agents.filter((a) => a.status !== 'offline').length,
              agents: agents.length,
            };
          }),
        },
        200,
      );
    })
    .post('/', facilitator, jsonBody(CreateRoomBody), async (c) => {
      const body = c.req.valid('json');
      if (await store.rooms.getRoom(body.id)) throw new CodedError('CONFLICT', `A room "${body.id}" already exists.`);
      const room = await rooms.create(body);
      await store.access.appendAudit({
        at: clock.now(),
        actorDid: c.get('session').did,
        action: 'room.create',
        roomId: room.id,
        messageId: null,
        details: { name: room.name, moderation: room.moderation },
      });
      return reply(c, RoomAnswer, { room }, 201);
    })
    .get('/:id', reader, async (c) => reply(c, RoomAnswer, { room: await requireRoom(c.req.param('id')) }, 200))
    .patch('/:id', facilitator, jsonBody(RoomSettingsBody), async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const { moderation, retention } = c.req.valid('json');
      const actorDid = c.get('session').did;
      if (moderation !== undefined) {
        await store.rooms.setModeration(room.id, moderation);
        await gateway.announceModeration(room.id, moderation);
        await store.access.appendAudit({
          at: clock.now(),
          actorDid,
          action: 'room.moderation',
          roomId: room.id,
          messageId: null,
          details: { from: room.moderation, to: moderation },
        });
      }
      if (retention !== undefined) {
        await store.rooms.setRetention(room.id, retention);
        await store.access.appendAudit({
          at: clock.now(),
          actorDid,
          action: 'room.retention',
          roomId: room.id,
          messageId: null,
          details: { from: room.retention ?? null, to: retention },
        });
      }
      return reply(c, RoomAnswer, { room: await requireRoom(room.id) }, 200);
    })
    .get('/:id/messages', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const before = intParam(c.req.query('before'), 'before');
      const after = intParam(c.req.query('after'), 'after');
      if (before !== undefined && after !== undefined)
        throw new CodedError('INVALID_REQUEST', 'Give either before or after, not both.');
      const limit = Math.min(intParam(c.req.query('limit'), 'limit') ?? 100, MAX_PAGE);
      if (limit < 1) throw new CodedError('INVALID_REQUEST', 'limit must be at least 1.');
      const topicKinds = listParam(c.req.queries('topic'));
      if (topicKinds?.some((k) => !TOPIC_KINDS.includes(k as TopicKind))) {
        throw new CodedError('INVALID_REQUEST', `topic must be among ${TOPIC_KINDS.join(', ')}.`);
      }
      const types = listParam(c.req.queries('type'));
      const agentId = c.req.query('agent') || undefined;
      const page = await store.rooms.listMessages({
        roomId: room.id,
        limit,
        ...(before !== undefined ? { before } : {}),
        ...(after !== undefined ? { after } : {}),
        ...(types ? { types } : {}),
        ...(agentId ? { agentId } : {}),
        ...(topicKinds ? { topicKinds: topicKinds as TopicKind[] } : {}),
      });
      return reply(c, MessagePage, { messages: page.messages.map(messageView), hasMore: page.hasMore }, 200);
    })
    .get('/:id/agents', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      return reply(c, PresenceList, { agents: presence.list(room.id) }, 200);
    })
    .get('/:id/grants', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const active = c.req.query('active');
      return reply(
        c,
        GrantList,
        {
          grants: await store.rooms.listGrants({
            roomId: room.id,
            ...(active === undefined ? {} : { active: active !== 'false' }),
          }),
        },
        200,
      );
    })
    .get('/:id/tasks', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      return reply(c, TaskGoalList, { tasks: await readTaskGoals(store, room.id) }, 200);
    })
    .get('/:id/review', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const status = c.req.query('status');
      if (status !== undefined && !['pending', 'approved', 'rejected', 'expired'].includes(status)) {
        throw new CodedError('INVALID_REQUEST', 'status must be pending, approved, rejected or expired.');
      }
      const items = await store.rooms.listReviewItems(room.id, status as ReviewItem['status'] | undefined);
      // A page names each decider once, however many items they decided.
      const names = new Map<string, Promise<string>>();
      const nameOf = (did: string | null) =>
        did === null ? null : (names.get(did) ?? names.set(did, operatorName(store, did)).get(did)!);
      const views = await Promise.all(items.map(async (i) => reviewView(i, await nameOf(i.decidedBy))));
      return reply(c, ReviewList, { items: views }, 200);
    })
    .post('/:id/review/:item/approve', facilitator, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const itemId = intParam(c.req.param('item'), 'item') ?? -1;
      await requirePendingItem(room.id, itemId);
      const item = await gateway.approveReview(itemId, c.get('session').did);
      if (!item) throw await lostRace(room.id, itemId);
      await store.access.appendAudit({
        at: clock.now(),
        actorDid: c.get('session').did,
        action: 'review.approve',
        roomId: room.id,
        messageId: item.messageId,
        details: { itemId, agentId: item.agentId, taskId: item.taskId },
      });
      return reply(c, ReviewDecision, { item: reviewView(item, await deciderName(item.decidedBy)) }, 200);
    })
    .post('/:id/review/:item/reject', facilitator, jsonBody(RejectBody), async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const itemId = intParam(c.req.param('item'), 'item') ?? -1;
      const { reason } = c.req.valid('json');
      await requirePendingItem(room.id, itemId);
      const item = await gateway.rejectReview(itemId, c.get('session').did, reason);
      if (!item) throw await lostRace(room.id, itemId);
      await store.access.appendAudit({
        at: clock.now(),
        actorDid: c.get('session').did,
        action: 'review.reject',
        roomId: room.id,
        messageId: item.messageId,
        details: { itemId, agentId: item.agentId, taskId: item.taskId, reason },
      });
      return reply(c, ReviewDecision, { item: reviewView(item, await deciderName(item.decidedBy)) }, 200);
    })
    .post('/:id/review/settle', facilitator, jsonBody(SettleBody), async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const body = c.req.valid('json');
      const actorDid = c.get('session').did;
      const pending = (await store.rooms.listReviewItems(room.id, 'pending')).sort((a, b) => a.id - b.id);
      const counts = { decided: 0, refused: 0, skipped: 0 };
      const itemIds: number[] = [];
      for (const item of pending.slice(0, SETTLE_MAX)) {
        const done =
          body.decision === 'approve'
            ? await gateway.approveReview(item.id, actorDid)
            : body.decision === 'reject'
              ? await gateway.rejectReview(item.id, actorDid, body.reason)
              : await gateway.releaseReview(item.id, actorDid, 'review mode ended');
        if (!done) counts.skipped += 1;
        else if (body.decision === 'approve' && done.status !== 'approved') counts.refused += 1;
        else counts.decided += 1;
        if (done) itemIds.push(item.id);
      }
      // One entry for the whole act: what was asked, and what it did.
      await store.access.appendAudit({
        at: clock.now(),
        actorDid,
        action: 'review.settle',
        roomId: room.id,
        messageId: null,
        details: {
          decision: body.decision,
          ...counts,
          itemIds,
          ...(body.decision === 'reject' ? { reason: body.reason } : {}),
        },
      });
      const remaining = (await store.rooms.listReviewItems(room.id, 'pending')).length;
      return reply(c, SettleAnswer, { decision: body.decision, ...counts, remaining }, 200);
    })
    .get('/:id/audit', reader, async (c) => {
      const room = await requireRoom(c.req.param('id'));
      const before = intParam(c.req.query('before'), 'before');
      const limit = Math.min(intParam(c.req.query('limit'), 'limit') ?? 100, MAX_PAGE);
      return reply(
        c,
        AuditPage,
        {
          entries: await store.access.listAudit({
            roomId: room.id,
            limit,
            ...(before !== undefined ? { before } : {}),
          }),
        },
        200,
      );
    });
}
