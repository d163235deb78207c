// What every inbox source is given: the board it fills, the store it rebuilds from, the clock,
// and the words it needs about a room.
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { InboxBoard } from './inbox-board';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

export interface SourceContext {
  readonly board: InboxBoard;
  readonly store: Store;
  readonly clock: Clock;
}

/** A running source: `rebuild` re-reads its facts from the store (start-up), `stop` lets go of its hooks. */
export interface InboxSource {
  rebuild(): Promise<void>;
  stop(): void;
}

/** A room's display name (the room id when it has none, or is gone). */
export async function roomName(store: Store, roomId: string): Promise<string> {
  return (await store.rooms.getRoom(roomId))?.name || roomId;
}

/**
 * Runs `work` now, or right after the run in progress when called during one; calls while one
 * waits share it. For sources that re-read all their facts on a cue that may come in bursts.
 */
export function coalesced(work: () => Promise<void>, what: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  const run = (): Promise<void> => {
    const current = work()
      .catch((error: unknown) => log.error({ work: what, err: error }, 'inbox work failed'))
      .finally(() => {
        if (running === current) running = undefined;
      });
    running = current;
    return current;
  };
  return () => {
    if (!running) return run();
    again ??= running.then(() => {
      again = undefined;
      return run();
    });
    return again;
  };
}

const utf8 = new TextDecoder();

/** The JSON of an envelope's bytes, or undefined when they do not parse. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
}

/** The words of an AOR result's content (AOR §6), whichever message type it is. */
export function resultText(envelope: unknown): string | null {
  const content = (envelope as { payload?: { content?: Record<string, unknown> } } | undefined)?.payload?.content;
  if (!content || typeof content !== 'object') return null;
  for (const key of ['question', 'text', 'label', 'url'] as const) {
    const value = content[key];
    if (typeof value === 'string') return value;
  }
  const bullets = content['bullets'];
  if (Array.isArray(bullets)) return bullets.filter((b) => typeof b === 'string').join(' · ');
  return null;
}
