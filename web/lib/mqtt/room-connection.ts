// The console's one MQTT connection: mqtt.js over WebSocket at /mqtt (MQTT 5), authenticated by
// the session cookie on the upgrade, so the browser holds no broker credential. It lives outside
// React and writes into the live-room store; screens call `openRoom` and read the store.
//
// On every (re)connect it subscribes to each open room and then backfills from the stored
// history (`after` = the highest cursor held), so a dropped connection leaves no gap;
// timeline-merge.ts explains how live and stored messages are merged without duplicates.
//
// mqtt.js (about 95 KB gzipped) runs in a worker (mqtt-worker.ts), started once the room's first
// history page is on screen: the timeline shows and scrolls without it, neither its evaluation
// nor its packet parsing runs on the page's main thread, and the subscribe-then-backfill above
// closes whatever arrived in between (docs/decisions-web.md).
import { parseTopic } from '@shared/aor/topics';
import { ApiError } from '@web/lib/api/http';
import { fetchMessages, type StoredMessage } from '@web/lib/api/rooms-messages';
import { queryClient } from '@web/lib/query-client';
import { liveRoomWriters as store } from './room-store';
import type { IncomingEntry } from './timeline-merge';
import { WorkerMqttClient } from './worker-client';
import { trailingThrottle } from '../trailing-throttle';

/** Topic kinds kept in the timeline; heartbeats feed presence on the server and are not kept. */
export const TIMELINE_TOPIC_KINDS = ['public', 'public_candidates', 'control', 'inbox', 'work'] as const;

const FIRST_PAGE = 200;
const BACKFILL_PAGE = 500;
/** Scrolling up loads this many older messages at a time. */
export const OLDER_PAGE = 100;
/** A permalink opens on a page starting this many cursors before the message. */
const ANCHOR_LEAD = 50;
const ANCHOR_PAGE = 200;
/** Live messages are handed to the store in bursts, at most this often (ms). */
const LIVE_FLUSH_MS = 100;
/** A reconnect that would need more pages than this reloads the newest page instead. */
const MAX_BACKFILL_PAGES = 20;
const BACKOFF_MS = { first: 1_000, max: 30_000 } as const;

const decoder = new TextDecoder();
const openRooms = new Map<string, number>();
let client: WorkerMqttClient | undefined;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

export const roomTopicFilters = (roomId: string) => [`rooms/${roomId}/#`, `switchboard/rooms/${roomId}/#`];

/** Full jitter: a server restart must not be met by every console at the same instant. */
export function backoffDelay(attemptNumber: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** Math.max(0, attemptNumber - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function brokerUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/mqtt`;
}

/** Resolves once the frame after now has been painted (so the history just stored is on screen). */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Starts the MQTT worker and connects, unless every room was closed meanwhile. */
function startClient(): void {
  if (client || openRooms.size === 0) return;
  store.setStatus('connecting');
  // An empty client id: the broker assigns a fresh one to each connection. Client ids are bound
  // to identities (server/mqtt/client-ids.ts), and a console keeps no session between connections.
  const c = new WorkerMqttClient({ url: brokerUrl(), clientId: '' });
  client = c;
  c.on('connect', () => {
    if (attempt > 0) void queryClient.invalidateQueries({ queryKey: ['health'] });
    attempt = 0;
    store.setStatus('live');
    for (const roomId of openRooms.keys()) void joinRoom(c, roomId);
  });
  c.on('message', (topic, payload) => onMessage(topic, payload));
  c.on('error', (error) => store.setStatus(c.connected ? 'live' : 'reconnecting', describeMqttError(error)));
  c.on('close', () => scheduleReconnect(c));
}

function scheduleReconnect(c: WorkerMqttClient): void {
  if (client !== c || openRooms.size === 0 || retryTimer) return;
  attempt += 1;
  // The header's server dot polls every 15 s: ask at each attempt (they back off), so a server
  // that went away says so at once.
  void queryClient.invalidateQueries({ queryKey: ['health'] });
  const delay = backoffDelay(attempt);
  store.setStatus(
    'reconnecting',
    'The live connection dropped; history will be filled in on reconnect.',
    Date.now() + delay,
  );
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    if (client === c && !c.connected) c.reconnect();
  }, delay);
}

/** Connects if needed, subscribes to the room and loads its history. Returns the closer. */
export function openRoom(roomId: string): () => void {
  openRooms.set(roomId, (openRooms.get(roomId) ?? 0) + 1);
  store.ensureRoom(roomId);
  const c = client;
  // History does not wait for the broker: the page shows what was said even while offline.
  // The first open loads the live client only once that first page is in (see the header).
  const history = store.hasHistory(roomId) ? Promise.resolve() : backfill(roomId);
  if (!c) void history.then(afterPaint).then(startClient);
  else if (c.connected) void joinRoom(c, roomId);
  else if (!c.reconnecting && c.disconnected && !retryTimer) c.reconnect();
  return () => {
    const left = (openRooms.get(roomId) ?? 1) - 1;
    if (left > 0) return void openRooms.set(roomId, left);
    openRooms.delete(roomId);
    if (client?.connected) client.unsubscribe(roomTopicFilters(roomId));
    if (openRooms.size === 0) disconnect();
  };
}

function disconnect(): void {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  const c = client;
  client = undefined;
  c?.end();
  store.setStatus('idle');
}

async function joinRoom(c: WorkerMqttClient, roomId: string): Promise<void> {
  try {
    // Subscribe before the backfill: whatever arrives in between is deduplicated by the merge.
    await c.subscribeAsync(roomTopicFilters(roomId));
  } catch (error) {
    store.setStatus('live', `Could not follow room "${roomId}" live: ${describeMqttError(error)}`);
  }
  await backfill(roomId);
}

const backfills = new Map<string, Promise<void>>();

/** One backfill per room at a time; a second request waits for the first and runs again. */
function backfill(roomId: string): Promise<void> {
  const previous = backfills.get(roomId) ?? Promise.resolve();
  const next = previous
    .then(() => runBackfill(roomId))
    .finally(() => {
      if (backfills.get(roomId) === next) backfills.delete(roomId);
    });
  backfills.set(roomId, next);
  return next;
}

async function runBackfill(roomId: string): Promise<void> {
  const kinds = TIMELINE_TOPIC_KINDS;
  // A detached timeline (a permalink far back) reaches the edge by paging forward, not here.
  if (store.get(roomId).detached) return;
  try {
    const after = store.lastCursor(roomId);
    if (after === null) {
      const page = await fetchMessages(roomId, { limit: FIRST_PAGE, topicKinds: kinds });
      store.addHistory(roomId, page.messages.map(fromHistory), page.hasMore);
      return;
    }
    let cursor = after;
    for (let i = 0; i < MAX_BACKFILL_PAGES; i++) {
      const page = await fetchMessages(roomId, { after: cursor, limit: BACKFILL_PAGE, topicKinds: kinds });
      store.addHistory(roomId, page.messages.map(fromHistory));
      const last = page.messages.at(-1);
      if (!page.hasMore || !last) return;
      cursor = last.cursor;
    }
  } catch (error) {
    store.historyFailed(roomId, error instanceof ApiError ? error.message : 'The history could not be loaded.');
  }
}

/** Scrolling up: the page before the oldest message held. One request per room at a time. */
export async function loadOlder(roomId: string): Promise<void> {
  const state = store.get(roomId);
  const before = state.timeline.entries[0]?.cursor;
  if (!state.hasOlder || state.older === 'loading' || before === undefined || before === null) return;
  store.olderLoading(roomId, 'loading');
  try {
    const page = await fetchMessages(roomId, { before, limit: OLDER_PAGE, topicKinds: TIMELINE_TOPIC_KINDS });
    store.addOlder(roomId, page.messages.map(fromHistory), page.hasMore);
  } catch {
    store.olderLoading(roomId, 'error');
  }
}

/** A permalink: starts the timeline a little before `cursor`, detached from the live edge. */
export async function openAt(roomId: string, cursor: number): Promise<void> {
  const state = store.get(roomId);
  if (state.timeline.keys.size > 0 && state.timeline.entries.some((e) => e.cursor === cursor)) return;
  await backfills.get(roomId);
  const page = await fetchMessages(roomId, {
    after: Math.max(0, cursor - ANCHOR_LEAD),
    limit: ANCHOR_PAGE,
    topicKinds: TIMELINE_TOPIC_KINDS,
  });
  store.anchorAt(roomId, page.messages.map(fromHistory), page.hasMore);
  if (!page.hasMore) await backfill(roomId);
}

/** Scrolling down a detached timeline: the next page forward; the last one reattaches. */
export async function loadNewer(roomId: string): Promise<void> {
  const state = store.get(roomId);
  const after = state.timeline.lastCursor;
  if (!state.detached || state.newer === 'loading' || after === null) return;
  store.newerLoading(roomId, 'loading');
  try {
    const page = await fetchMessages(roomId, { after, limit: BACKFILL_PAGE, topicKinds: TIMELINE_TOPIC_KINDS });
    store.addNewer(roomId, page.messages.map(fromHistory), page.hasMore);
    if (!page.hasMore) await backfill(roomId);
  } catch {
    store.newerLoading(roomId, 'error');
  }
}

/** Leaves a detached timeline for the newest page and the live tail. */
export async function jumpToLive(roomId: string): Promise<void> {
  if (!store.get(roomId).detached) return;
  store.resetToLive(roomId);
  await backfill(roomId);
}

function fromHistory(m: StoredMessage): IncomingEntry {
  return {
    cursor: m.cursor,
    topic: m.topic,
    topicKind: m.topicKind,
    topicAgentId: m.topicAgentId,
    messageId: m.messageId,
    type: m.type,
    fromId: m.fromId,
    receivedAt: m.receivedAt,
    raw: m.raw,
    envelope: m.envelope,
    source: 'history',
  };
}

function onMessage(topic: string, payload: Uint8Array): void {
  const notice = /^switchboard\/rooms\/([^/]+)\/(review|presence)$/.exec(topic);
  if (notice) {
    const [, roomId, kind] = notice;
    void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, kind === 'review' ? 'review' : 'agents'] });
    if (kind === 'presence') void queryClient.invalidateQueries({ queryKey: ['rooms'], exact: true });
    return;
  }
  const parsed = parseTopic(topic);
  if (!parsed.ok || !(TIMELINE_TOPIC_KINDS as readonly string[]).includes(parsed.value.kind)) return;
  const { roomId, kind } = parsed.value;
  if (!openRooms.has(roomId)) return;
  const raw = decoder.decode(payload);
  let envelope: unknown = null;
  try {
    envelope = JSON.parse(raw);
  } catch {
    envelope = null;
  }
  const record = isRecord(envelope) ? envelope : {};
  const from = isRecord(record.from) ? record.from : {};
  queueLive(roomId, {
    cursor: null,
    topic,
    topicKind: kind,
    topicAgentId: 'agentId' in parsed.value ? parsed.value.agentId : null,
    messageId: typeof record.id === 'string' ? record.id : null,
    type: typeof record.type === 'string' ? record.type : null,
    fromId: typeof from.id === 'string' ? from.id : null,
    receivedAt: Date.now(),
    raw,
    envelope,
    source: 'live',
  });
  if (kind === 'control') void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'grants'] });
  // A new task names itself by its goal on every screen (decisions-web.md §33).
  else if (kind === 'inbox' && record.type === 'task') refreshTaskGoals(roomId);
  // Each approved message spends budget without a control event: the meters follow, once a second.
  else if (kind === 'public') refreshGrants(roomId);
}

/**
 * The server's history recorder stores a task beside this console, not before it: a read at once
 * may come back without the new task, so the goals are read again a second and three seconds on.
 */
function refreshTaskGoals(roomId: string): void {
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'tasks'] });
  refresh();
  for (const ms of [1000, 3000]) setTimeout(refresh, ms);
}

const refreshGrants = trailingThrottle(
  (roomId) => void queryClient.invalidateQueries({ queryKey: ['rooms', roomId, 'grants'] }),
  1000,
);

const pendingLive = new Map<string, IncomingEntry[]>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function queueLive(roomId: string, entry: IncomingEntry): void {
  const list = pendingLive.get(roomId);
  if (list) list.push(entry);
  else pendingLive.set(roomId, [entry]);
  flushTimer ??= setTimeout(flushLive, LIVE_FLUSH_MS);
}

function flushLive(): void {
  flushTimer = undefined;
  for (const [roomId, entries] of pendingLive) store.addLive(roomId, entries);
  pendingLive.clear();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function describeMqttError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/not authori[sz]ed/i.test(text))
    return 'The broker refused this: your role may not do it, or your session ended.';
  if (/connack|connection refused/i.test(text))
    return 'The broker refused the connection; sign in again if your session ended.';
  return text || 'The broker connection failed.';
}

/** The connected client, for publishing; throws in words when there is none. */
export function liveClient(): WorkerMqttClient {
  if (!client?.connected)
    throw new Error('Not connected to the broker right now. Wait until the room shows "Live", then try again.');
  return client;
}
