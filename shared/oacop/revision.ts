// OACoP §3.4 optimistic locking: every change carries a higher `revision`; anything else is stale.
import { fail, ok, type Result } from '../errors';
import { OacopErrorCode } from './error-codes';

export interface Revisioned {
  readonly revision: number;
}

/**
 * OACoP §3.4.2: accept `incoming` iff `incoming.revision > local.revision` (no local state yet:
 * accept). Lower or equal is `OACOP_STALE_REVISION`; the spec's "ignore" is the caller's choice of
 * what to do with that code, e.g. drop a redelivered duplicate silently.
 */
export function applyRevision<T extends Revisioned>(local: Revisioned | undefined, incoming: T): Result<T> {
  if (local === undefined || incoming.revision > local.revision) return ok(incoming);
  return fail(
    OacopErrorCode.STALE_REVISION,
    `Revision ${incoming.revision} is not newer than the current ${local.revision}.`,
    {
      current: local.revision,
      incoming: incoming.revision,
    },
  );
}

/**
 * OACoP §3.4.3: a `ProposalResponse` must answer the thread's current revision. An older one lost
 * the race (e.g. to a Confirm); a newer one means this side missed a revision. Both are
 * `OACOP_STALE_REVISION`: either way the two sides must synchronize before it can count.
 */
export function checkRespondingRevision(current: number, respondingToRevision: number): Result<void> {
  if (respondingToRevision === current) return ok(undefined);
  const which = respondingToRevision < current ? 'an outdated' : 'an unknown';
  return fail(
    OacopErrorCode.STALE_REVISION,
    `The response answers ${which} revision ${respondingToRevision}; the thread is at ${current}.`,
    {
      current,
      respondingToRevision,
    },
  );
}

/**
 * AssignTask and TaskUpdate may omit `revision` (§7.4, §7.5). Once a task carries one, every later
 * message must carry a higher one; before that, messages apply in arrival order
 * (docs/decisions-oacop.md, "Task revisions").
 */
export function applyOptionalRevision(
  local: number | undefined,
  incoming: number | undefined,
): Result<number | undefined> {
  if (local === undefined) return ok(incoming);
  if (incoming === undefined) {
    return fail(
      OacopErrorCode.STALE_REVISION,
      `The task is at revision ${local}; a message without a revision cannot replace it.`,
      {
        current: local,
      },
    );
  }
  const applied = applyRevision({ revision: local }, { revision: incoming });
  return applied.ok ? ok(incoming) : applied;
}
