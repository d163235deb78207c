// Both engines' stores (sqlite/sqlite-store.ts, pg/pg-store.ts) are the same composition: the
// Store contract's room methods go to the engine's room store (rooms, history, grants, review),
// its access methods to its access store (credentials, operators, sessions, audit), and the
// other parts (relay, negotiations, OACoP, services) are fields. This is that hand-over, once.
import type { Store } from './store';

export type RoomPart = Pick<
  Store,
  | 'ensureRoom'
  | 'getRoom'
  | 'setModeration'
  | 'setRetention'
  | 'applyRetention'
  | 'listRooms'
  | 'appendMessage'
  | 'listMessages'
  | 'putGrant'
  | 'getGrant'
  | 'listGrants'
  | 'spendGrant'
  | 'endGrant'
  | 'listExpiredLiveGrants'
  | 'recordCandidate'
  | 'addReviewItem'
  | 'listReviewItems'
  | 'approveReviewItem'
  | 'decideReviewItem'
>;

export type AccessPart = Pick<
  Store,
  | 'putAgentCredential'
  | 'getAgentCredential'
  | 'listAgentCredentials'
  | 'removeAgentCredential'
  | 'putOperator'
  | 'getOperator'
  | 'listOperators'
  | 'createEnrollment'
  | 'consumeEnrollment'
  | 'createChallenge'
  | 'consumeChallenge'
  | 'createSession'
  | 'getSession'
  | 'deleteSession'
  | 'appendAudit'
  | 'listAudit'
>;

type Args<K extends keyof Store> = Store[K] extends (...args: infer A) => unknown ? A : never;

export abstract class ComposedStore implements RoomPart, AccessPart {
  readonly #rooms: RoomPart;
  readonly #access: AccessPart;

  protected constructor(rooms: RoomPart, access: AccessPart) {
    this.#rooms = rooms;
    this.#access = access;
  }

  // Rooms, their history, mic grants and review mode.
  ensureRoom(...a: Args<'ensureRoom'>) {
    return this.#rooms.ensureRoom(...a);
  }
  getRoom(...a: Args<'getRoom'>) {
    return this.#rooms.getRoom(...a);
  }
  setModeration(...a: Args<'setModeration'>) {
    return this.#rooms.setModeration(...a);
  }
  setRetention(...a: Args<'setRetention'>) {
    return this.#rooms.setRetention(...a);
  }
  applyRetention(...a: Args<'applyRetention'>) {
    return this.#rooms.applyRetention(...a);
  }
  listRooms(...a: Args<'listRooms'>) {
    return this.#rooms.listRooms(...a);
  }
  appendMessage(...a: Args<'appendMessage'>) {
    return this.#rooms.appendMessage(...a);
  }
  listMessages(...a: Args<'listMessages'>) {
    return this.#rooms.listMessages(...a);
  }
  putGrant(...a: Args<'putGrant'>) {
    return this.#rooms.putGrant(...a);
  }
  getGrant(...a: Args<'getGrant'>) {
    return this.#rooms.getGrant(...a);
  }
  listGrants(...a: Args<'listGrants'>) {
    return this.#rooms.listGrants(...a);
  }
  spendGrant(...a: Args<'spendGrant'>) {
    return this.#rooms.spendGrant(...a);
  }
  endGrant(...a: Args<'endGrant'>) {
    return this.#rooms.endGrant(...a);
  }
  listExpiredLiveGrants(...a: Args<'listExpiredLiveGrants'>) {
    return this.#rooms.listExpiredLiveGrants(...a);
  }
  recordCandidate(...a: Args<'recordCandidate'>) {
    return this.#rooms.recordCandidate(...a);
  }
  addReviewItem(...a: Args<'addReviewItem'>) {
    return this.#rooms.addReviewItem(...a);
  }
  listReviewItems(...a: Args<'listReviewItems'>) {
    return this.#rooms.listReviewItems(...a);
  }
  approveReviewItem(...a: Args<'approveReviewItem'>) {
    return this.#rooms.approveReviewItem(...a);
  }
  decideReviewItem(...a: Args<'decideReviewItem'>) {
    return this.#rooms.decideReviewItem(...a);
  }

  // Agent credentials, operators, enrollment, challenges, sessions and the audit log.
  putAgentCredential(...a: Args<'putAgentCredential'>) {
    return this.#access.putAgentCredential(...a);
  }
  getAgentCredential(...a: Args<'getAgentCredential'>) {
    return this.#access.getAgentCredential(...a);
  }
  listAgentCredentials(...a: Args<'listAgentCredentials'>) {
    return this.#access.listAgentCredentials(...a);
  }
  removeAgentCredential(...a: Args<'removeAgentCredential'>) {
    return this.#access.removeAgentCredential(...a);
  }
  putOperator(...a: Args<'putOperator'>) {
    return this.#access.putOperator(...a);
  }
  getOperator(...a: Args<'getOperator'>) {
    return this.#access.getOperator(...a);
  }
  listOperators(...a: Args<'listOperators'>) {
    return this.#access.listOperators(...a);
  }
  createEnrollment(...a: Args<'createEnrollment'>) {
    return this.#access.createEnrollment(...a);
  }
  consumeEnrollment(...a: Args<'consumeEnrollment'>) {
    return this.#access.consumeEnrollment(...a);
  }
  createChallenge(...a: Args<'createChallenge'>) {
    return this.#access.createChallenge(...a);
  }
  consumeChallenge(...a: Args<'consumeChallenge'>) {
    return this.#access.consumeChallenge(...a);
  }
  createSession(...a: Args<'createSession'>) {
    return this.#access.createSession(...a);
  }
  getSession(...a: Args<'getSession'>) {
    return this.#access.getSession(...a);
  }
  deleteSession(...a: Args<'deleteSession'>) {
    return this.#access.deleteSession(...a);
  }
  appendAudit(...a: Args<'appendAudit'>) {
    return this.#access.appendAudit(...a);
  }
  listAudit(...a: Args<'listAudit'>) {
    return this.#access.listAudit(...a);
  }
}
