// Why a task context stopped accepting messages. Both are the `reason` of `ctx.revoked` and what
// a publish on a stopped context throws, so a handler that ignores the signal still stops at
// its next publish.

/** AOR §5.4: the mic for this task was revoked (by a facilitator, or by the gateway at the end of a grant). */
export class MicRevokedError extends Error {
  override readonly name = 'MicRevokedError';
  constructor(
    readonly taskId: string,
    /** The revoke's `reason` (the gateway's are `mic_grant_expired` and `message_limit_exceeded`). */
    readonly reason: string | undefined,
  ) {
    super(`Mic for task ${taskId} was revoked${reason === undefined ? '' : ` (${reason})`}.`);
  }
}

/** The agent client was closed while the task was running. */
export class AgentClosedError extends Error {
  override readonly name = 'AgentClosedError';
  constructor(readonly taskId: string) {
    super(`Agent client closed while task ${taskId} was running.`);
  }
}

/** True for the errors that mean "this task may no longer speak": expected, not a failure. */
export const isTaskStopped = (error: unknown): error is MicRevokedError | AgentClosedError =>
  error instanceof MicRevokedError || error instanceof AgentClosedError;
