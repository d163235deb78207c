// Live room state, owned here: the MQTT connection outside React writes into
// this store; screens only read it. Server data (rooms, grants, presence) stays in TanStack Query.
//
// A room's timeline is one contiguous run of stored history plus what arrived live after it.
// Normally it ends at the live edge. Opened at a permalink far back it is "detached": it ends
// at the last page loaded forward, and live messages wait in `detachedLive` until the pages
// forward reach the edge (or the reader jumps to live), so nothing is lost on the way back.
import { create } from 'zustand';
import { addLiveMany, emptyTimeline, mergeHistory, type IncomingEntry, type Timeline } from './timeline-merge';

export type ConnectionStatus = 'idle' | 'connecting' | 'live' | 'reconnecting';
export type PageLoad = 'idle' | 'loading' | 'error';

export interface RoomLiveState {
  readonly timeline: Timeline;
  /** First history page: loading until it answered once. */
  readonly history: 'loading' | 'ready' | 'error';
  readonly historyError: string | null;
  /** Older stored messages exist before the first entry held. */
  readonly hasOlder: boolean;
  readonly older: PageLoad;
  /** The timeline ends before the live edge (opened at a permalink); see the header. */
  readonly detached: boolean;
  readonly newer: PageLoad;
  /** Live messages received while detached, merged when the timeline reaches the edge. */
  readonly detachedLive: readonly IncomingEntry[];
}

interface LiveStore {
  readonly status: ConnectionStatus;
  /** Why the last connection attempt or connection ended, in words; null when live. */
  readonly lastError: string | null;
  /** When the next reconnect attempt is due (ms since the epoch), while reconnecting. */
  readonly retryAt: number | null;
  readonly rooms: Readonly<Record<string, RoomLiveState>>;
}

/** Live messages held while detached; beyond this the oldest go (history has them). */
const MAX_DETACHED_LIVE = 20_000;

const emptyRoom: RoomLiveState = {
  timeline: emptyTimeline,
  history: 'loading',
  historyError: null,
  hasOlder: false,
  older: 'idle',
  detached: false,
  newer: 'idle',
  detachedLive: [],
};

export const useLiveRooms = create<LiveStore>()(() => ({ status: 'idle', lastError: null, retryAt: null, rooms: {} }));

const room = (roomId: string): RoomLiveState => useLiveRooms.getState().rooms[roomId] ?? emptyRoom;
const updateRoom = (roomId: string, update: (room: RoomLiveState) => RoomLiveState) =>
  useLiveRooms.setState((s) => ({ rooms: { ...s.rooms, [roomId]: update(s.rooms[roomId] ?? emptyRoom) } }));

/** Writers, for the connection module only. */
export const liveRoomWriters = {
  setStatus(status: ConnectionStatus, lastError: string | null = null, retryAt: number | null = null) {
    useLiveRooms.setState({ status, lastError, retryAt });
  },
  ensureRoom(roomId: string) {
    if (!useLiveRooms.getState().rooms[roomId]) updateRoom(roomId, (r) => r);
  },
  addLive(roomId: string, messages: readonly IncomingEntry[]) {
    if (messages.length === 0) return;
    updateRoom(roomId, (r) => {
      if (r.detached) {
        const held = [...r.detachedLive, ...messages];
        return {
          ...r,
          detachedLive: held.length > MAX_DETACHED_LIVE ? held.slice(held.length - MAX_DETACHED_LIVE) : held,
        };
      }
      const timeline = addLiveMany(r.timeline, messages);
      return timeline === r.timeline ? r : { ...r, timeline };
    });
  },
  /** The newest page (first open) or a backfill page after the highest cursor held. */
  addHistory(roomId: string, page: readonly IncomingEntry[], olderExist?: boolean) {
    updateRoom(roomId, (r) => ({
      ...r,
      timeline: mergeHistory(r.timeline, page),
      history: 'ready',
      historyError: null,
      ...(olderExist === undefined ? {} : { hasOlder: olderExist }),
    }));
  },
  historyFailed(roomId: string, message: string) {
    updateRoom(roomId, (r) => ({ ...r, history: r.history === 'ready' ? 'ready' : 'error', historyError: message }));
  },
  olderLoading(roomId: string, state: PageLoad) {
    updateRoom(roomId, (r) => ({ ...r, older: state }));
  },
  addOlder(roomId: string, page: readonly IncomingEntry[], olderExist: boolean) {
    updateRoom(roomId, (r) => ({
      ...r,
      timeline: mergeHistory(r.timeline, page),
      hasOlder: olderExist,
      older: 'idle',
    }));
  },
  /** Starts over at a permalink: a fresh timeline of one page, detached unless it reaches the edge. */
  anchorAt(roomId: string, page: readonly IncomingEntry[], newerExist: boolean) {
    updateRoom(roomId, (r) => {
      const base: RoomLiveState = {
        ...emptyRoom,
        timeline: mergeHistory(emptyTimeline, page),
        history: 'ready',
        hasOlder: true,
      };
      // Whatever was live, and is not on the page, is newer than it: keep it for the way back.
      const live = [...r.detachedLive, ...r.timeline.entries.filter((e) => e.cursor === null)];
      if (newerExist) return { ...base, detached: true, detachedLive: live };
      return { ...base, timeline: addLiveMany(base.timeline, live) };
    });
  },
  newerLoading(roomId: string, state: PageLoad) {
    updateRoom(roomId, (r) => ({ ...r, newer: state }));
  },
  /** A page forward while detached; the last one (nothing newer) reattaches to the live edge. */
  addNewer(roomId: string, page: readonly IncomingEntry[], newerExist: boolean) {
    updateRoom(roomId, (r) => {
      const timeline = mergeHistory(r.timeline, page);
      if (newerExist) return { ...r, timeline, newer: 'idle' };
      return {
        ...r,
        timeline: addLiveMany(timeline, r.detachedLive),
        detached: false,
        detachedLive: [],
        newer: 'idle',
      };
    });
  },
  /** Drops a detached timeline for the newest page; live messages held are kept. */
  resetToLive(roomId: string) {
    updateRoom(roomId, (r) => ({
      ...emptyRoom,
      timeline: addLiveMany(emptyTimeline, [...r.detachedLive, ...r.timeline.entries.filter((e) => e.cursor === null)]),
    }));
  },
  lastCursor(roomId: string): number | null {
    return room(roomId).timeline.lastCursor;
  },
  hasHistory(roomId: string): boolean {
    return room(roomId).history === 'ready';
  },
  get(roomId: string): RoomLiveState {
    return room(roomId);
  },
};

export const useRoomLive = (roomId: string): RoomLiveState => useLiveRooms((s) => s.rooms[roomId] ?? emptyRoom);
