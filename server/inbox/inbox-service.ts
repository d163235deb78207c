// What the inbox routes serve: the server-wide feed (InboxBoard) with this instance's soft claims
// laid over it and the quiet console's summary, under one version that grows with every change.
// Narrowed per operator: a `cosign` item is only its party's.
import type { InboxClaim, InboxItem, InboxList, InboxSummary } from '@shared/contract/inbox';
import { orderItems } from '@shared/inbox/order';
import { unnamedOperator } from '@shared/contract/operator-name';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { InboxBoard } from './inbox-board';
import { InboxClaims } from './inbox-claims';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

/** What one operator's stream is told, with the version it leads to. */
export type InboxEvent =
  | { readonly type: 'upsert'; readonly version: number; readonly item: InboxItem }
  | { readonly type: 'remove'; readonly version: number; readonly id: string; readonly item: InboxItem }
  | { readonly type: 'summary'; readonly version: number; readonly summary: InboxSummary };

/** An operator's display name, when the store has one; swapped when operators get names. */
export type OperatorName = (did: string) => Promise<string | undefined>;

export const noOperatorNames: OperatorName = () => Promise.resolve(undefined);

/** Whether an operator sees an item: every item, but a co-signature only its party. */
export const visibleTo = (item: InboxItem, did: string): boolean =>
  item.ref.kind !== 'cosign' || item.ref.party === did;

export interface InboxServiceOptions {
  readonly board: InboxBoard;
  readonly clock: Clock;
  /** Where dismissals are kept and audited; without it nothing can be dismissed. */
  readonly store?: Pick<Store, 'inbox' | 'access'>;
  /** Reads the summary's numbers (rooms, presence, recent rejects). */
  readonly summary: () => Promise<InboxSummary>;
  readonly operatorName?: OperatorName;
  /** How often the summary is read again for the streams. */
  readonly summaryEveryMs?: number;
}

export class InboxService {
  readonly board: InboxBoard;
  readonly claims: InboxClaims;
  readonly #listeners = new Set<(event: InboxEvent) => void>();
  readonly #readSummary: () => Promise<InboxSummary>;
  readonly #store: Pick<Store, 'inbox' | 'access'> | undefined;
  readonly #clock: Clock;
  readonly #operatorName: OperatorName;
  readonly #offBoard: () => void;
  readonly #timer: NodeJS.Timeout;
  #summary: InboxSummary = { roomsActive: 0, agentsOnline: 0, rejectsLastHour: 0 };
  #version = 0;

  constructor(options: InboxServiceOptions) {
    this.board = options.board;
    this.#readSummary = options.summary;
    this.#store = options.store;
    this.#clock = options.clock;
    this.#operatorName = options.operatorName ?? noOperatorNames;
    this.claims = new InboxClaims(options.clock, (id) => {
      const item = this.board.get(id);
      if (item) this.#emit({ type: 'upsert', version: ++this.#version, item: this.#withClaim(item) });
    });
    this.#offBoard = this.board.subscribe((change) => {
      if (change.type === 'removed') {
        this.claims.forget(change.item.id);
        this.#emit({ type: 'remove', version: ++this.#version, id: change.item.id, item: change.item });
      } else this.#emit({ type: 'upsert', version: ++this.#version, item: this.#withClaim(change.item) });
    });
    this.#timer = setInterval(() => void this.refreshSummary(), options.summaryEveryMs ?? 10_000);
    this.#timer.unref();
  }

  get version(): number {
    return this.#version;
  }

  /** This operator's inbox, ordered, with the summary as last read. */
  async list(did: string): Promise<InboxList> {
    await this.refreshSummary();
    return this.snapshot(did);
  }

  /** The list as it is now, without reading anything (a stream's first event). */
  snapshot(did: string): InboxList {
    const items = this.board
      .current()
      .filter((item) => visibleTo(item, did))
      .map((item) => this.#withClaim(item));
    return { items: orderItems(items), summary: this.#summary, version: this.#version };
  }

  /** The item as this operator may see it, or undefined. */
  item(id: string, did: string): InboxItem | undefined {
    const item = this.board.get(id);
    return item && visibleTo(item, did) ? this.#withClaim(item) : undefined;
  }

  /**
   * An operator's dismissal of an item it may see (decisions-server.md §75): stored, audited and
   * taken off the board; undefined when no such item waits for it.
   */
  async dismiss(itemId: string, did: string): Promise<InboxItem | undefined> {
    const item = this.item(itemId, did);
    if (!item || !this.#store) return undefined;
    const at = this.#clock.now();
    await this.#store.inbox.dismiss({ itemId, since: item.since, by: did, at });
    await this.#store.access.appendAudit({
      at,
      actorDid: did,
      action: 'inbox.dismiss',
      roomId: 'roomId' in item.ref ? item.ref.roomId : null,
      messageId: null,
      details: { itemId, kind: item.kind, title: item.title },
    });
    this.board.dismiss(itemId, item.since, did);
    return item;
  }

  /** Puts back the dismissals stored (at start). */
  async loadDismissals(): Promise<void> {
    for (const d of (await this.#store?.inbox.listDismissals()) ?? []) this.board.dismiss(d.itemId, d.since, d.by);
  }

  async claim(itemId: string, did: string): Promise<InboxClaim> {
    const name = (await this.#operatorName(did)) ?? unnamedOperator(did);
    return this.claims.claim(itemId, did, name);
  }

  /** Hears every change in order; the caller narrows it per operator (`visibleTo`). */
  subscribe(listener: (event: InboxEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the summary again and tells the streams when it moved. */
  async refreshSummary(): Promise<void> {
    let next: InboxSummary;
    try {
      next = await this.#readSummary();
    } catch (error) {
      log.error({ err: error }, 'the inbox summary could not be read');
      return;
    }
    const before = this.#summary;
    if (
      next.roomsActive === before.roomsActive &&
      next.agentsOnline === before.agentsOnline &&
      next.rejectsLastHour === before.rejectsLastHour
    )
      return;
    this.#summary = next;
    this.#emit({ type: 'summary', version: ++this.#version, summary: next });
  }

  close(): void {
    clearInterval(this.#timer);
    this.#offBoard();
    this.claims.close();
    this.#listeners.clear();
  }

  #withClaim(item: InboxItem): InboxItem {
    const claim = this.claims.get(item.id);
    return claim === item.claim ? item : { ...item, claim };
  }

  #emit(event: InboxEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        log.error({ err: error }, 'an inbox stream listener failed');
      }
    }
  }
}
