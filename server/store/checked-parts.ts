// The one validating layer in front of both engines: each store part's arguments are checked here,
// once, before an engine runs a query, and a check may hand the engine the argument in the form it
// queries with (a clock as whole seconds). Engines check nothing of their own; what they decide
// about a grant they ask shared/aor/stored-grants.ts (docs/decisions-server.md §47).
import type { NegotiationStore } from './negotiation-store';
import type { RelayStore } from './relay-store';
import { ACTIVITY_WINDOW_MS, type AccessStore, type RoomStore, type StoreParts } from './store';
import type { WebhookStore } from './webhook-store';
import { checkCursor, checkFilterList, checkLimit, checkOperatorName, wholeSeconds } from './arguments';

/** For some of a part's methods, a check that throws or answers the arguments the engine gets. */
type Checks<T> = { readonly [K in keyof T]?: T[K] extends (...args: infer A) => unknown ? (...args: A) => A : never };

const HISTORY_PAGE = 10_000;
const AUDIT_PAGE = 10_000;
const RELAY_PAGE = 1000;
const LOG_PAGE = 10_000;
/** Agents read at once: a page of the Agents screen and more (decisions-server.md §87). */
const AGENT_PAGE = 1000;

/** At most `max` ids, each once: a batched read answers one row per id. */
function checkIdList(ids: readonly string[], max: number): [readonly string[]] {
  const once = [...new Set(ids)];
  if (once.length > max) throw new RangeError(`at most ${max} ids at once, got ${once.length}`);
  return [once];
}

const roomChecks: Checks<RoomStore> = {
  listMessages: (query) => {
    checkLimit(query.limit, HISTORY_PAGE);
    checkCursor(query.before, 'before');
    checkCursor(query.after, 'after');
    checkFilterList(query.types);
    checkFilterList(query.topicKinds);
    return [query];
  },
  spendGrant: (roomId, agentId, taskId, nowSeconds) => [roomId, agentId, taskId, wholeSeconds(nowSeconds)],
  listExpiredLiveGrants: (nowSeconds) => [wholeSeconds(nowSeconds)],
  getReviewItem: (roomId, id) => (checkCursor(id, 'id'), [roomId, id]),
  approveReviewItem: (id, by, at, nowSeconds, message) => [id, by, at, wholeSeconds(nowSeconds), message],
  // The health queries are bounded: an hour of history at most (decisions-server.md §64).
  roomActivity: (roomId, sinceMs, nowMs) => [roomId, Math.max(sinceMs, nowMs - ACTIVITY_WINDOW_MS), nowMs],
};

const accessChecks: Checks<AccessStore> = {
  putOperator: (operator) => (checkOperatorName(operator.name), [operator]),
  setOperatorName: (did, name) => (checkOperatorName(name), [did, name]),
  listAudit: (filter) => {
    checkLimit(filter.limit, AUDIT_PAGE);
    checkCursor(filter.before, 'before');
    return [filter];
  },
  pageAgentCredentials: (page) => (checkLimit(page.limit, AGENT_PAGE), [page]),
  lastAgentActivity: (agentIds) => checkIdList(agentIds, AGENT_PAGE),
  getOperators: (dids) => checkIdList(dids, AGENT_PAGE),
  listActivity: (filter) => {
    checkLimit(filter.limit, AUDIT_PAGE);
    checkCursor(filter.before, 'before');
    return [filter];
  },
};

const relayChecks: Checks<RelayStore> = {
  appendEvent: (envelope, decide) => {
    if (envelope.kind !== 'event') throw new TypeError('appendEvent takes envelopes of kind "event"');
    return [envelope, decide];
  },
  register: (envelope, record) => {
    if (envelope.kind !== 'registration') throw new TypeError('register takes envelopes of kind "registration"');
    return [envelope, record];
  },
  listEvents: (query) => (checkLimit(query.limit, RELAY_PAGE), [query]),
  threadEvents: (threadId, limit) => (checkLimit(limit, RELAY_PAGE), [threadId, limit]),
  listThreads: (filter) => (checkLimit(filter.limit, RELAY_PAGE), [filter]),
  listDueThreads: (now, limit) => (checkLimit(limit, RELAY_PAGE), [now, limit]),
};

const negotiationChecks: Checks<NegotiationStore> = {
  list: (filter) => (checkLimit(filter.limit, 500), [filter]),
  listDue: (now, limit) => (checkLimit(limit, 1000), [now, limit]),
  logPage: (from, limit) => (checkLimit(limit, LOG_PAGE), [from, limit]),
};

const webhookChecks: Checks<WebhookStore> = {
  claimDue: (now, leaseUntil, limit, lease) => {
    checkLimit(limit, 1000);
    if (!(leaseUntil > now)) throw new RangeError('a lease must end after now');
    return [now, leaseUntil, limit, lease];
  },
  listDeliveries: (endpointId, limit) => (checkLimit(limit, 1000), [endpointId, limit]),
};

/** The parts as callers see them: every method of the engine's, its arguments checked first. */
export function checkedParts(parts: StoreParts): StoreParts {
  return {
    rooms: checked(parts.rooms, roomChecks),
    access: checked(parts.access, accessChecks),
    relay: checked(parts.relay, relayChecks),
    negotiations: checked(parts.negotiations, negotiationChecks),
    oacop: parts.oacop,
    services: parts.services,
    webhooks: checked(parts.webhooks, webhookChecks),
    agentImports: parts.agentImports,
    inbox: parts.inbox,
  };
}

/**
 * The part's methods bound to it, the checked ones behind their check. A failed check rejects
 * the call's promise, as the engine's own throw in an async method would have.
 */
function checked<T extends object>(part: T, checks: Checks<T>): T {
  const methods: Record<string, unknown> = {};
  for (
    let proto: object | null = Object.getPrototypeOf(part);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value: unknown = Object.getOwnPropertyDescriptor(proto, name)?.value;
      if (name === 'constructor' || name in methods || typeof value !== 'function') continue;
      const method = (value as (...args: unknown[]) => unknown).bind(part);
      const check = checks[name as keyof T] as ((...args: unknown[]) => unknown[]) | undefined;
      methods[name] = check
        ? (...args: unknown[]) => {
            let checkedArgs: unknown[];
            try {
              checkedArgs = check(...args);
            } catch (error) {
              // Checks throw CodedErrors; an async method's caller sees them as a rejection.
              return Promise.reject(error as Error);
            }
            return method(...checkedArgs);
          }
        : method;
    }
  }
  return methods as T;
}
