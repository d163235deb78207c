// What a task handler gets for one task (AOR §5.2): helpers that publish each §6 disclosure as a
// `result` candidate (§5.6) and report what the gateway did with it, the mic grant as learned
// from control (§5.3), and a signal that aborts when the mic is revoked (§5.4).
import { buildEnvelope } from '@shared/aor/control-envelopes';
import type { From, ResultEnvelope, TaskEnvelope } from '@shared/aor/envelope';
import type { GrantKey } from '@shared/aor/mic-grants';
import type { MessageType, ResultPayload, RISK_SEVERITIES, TaskPayload } from '@shared/aor/payloads';
import type { AgentClosedError, MicRevokedError } from './agent-errors';
import type { CandidateOutcome } from './candidate-outcomes';
import { isLive, sameKey, type GrantTracker, type GrantView } from './grant-tracker';

/** The §6 content of a message type, as the shared schema defines it. */
export type ContentOf<T extends MessageType> = Extract<ResultPayload, { message_type: T }>['content'];

export interface RiskNotice {
  readonly text: string;
  readonly severity?: (typeof RISK_SEVERITIES)[number];
  readonly mitigation?: string;
}

export interface TaskContext {
  /** The room of the inbox topic the task arrived on (AOR §2: the topic decides). */
  readonly roomId: string;
  readonly taskId: string;
  readonly task: TaskPayload;
  readonly envelope: TaskEnvelope;
  /**
   * Aborts when a `mic_revoke` for this agent and task arrives on control (a facilitator's, or the
   * gateway's at the end of a grant's time or budget), with a MicRevokedError as its reason; or
   * when the client closes, with an AgentClosedError. After that every publish throws that reason
   * and sends nothing. It follows the task while its handler runs (until the promise it returned
   * settles).
   */
  readonly revoked: AbortSignal;
  /** The grant in force for this task, as this agent learned it from control; undefined if none seen. */
  readonly grant: GrantView | undefined;
  /** Resolves with the grant once one is live (at once if it already is), or undefined after `timeoutMs` or a revoke. */
  waitForGrant(timeoutMs?: number): Promise<GrantView | undefined>;
  /** Whether the grant in force would let one more `messageType` through now: live, type allowed, budget left. */
  canSend(messageType: MessageType): boolean;
  /** Publishes one §6 disclosure as a candidate; resolves when the gateway approved or rejected it. */
  publish<T extends MessageType>(messageType: T, content: ContentOf<T>): Promise<CandidateOutcome>;
  ack(text: string): Promise<CandidateOutcome>; // §6.1
  progress(text: string): Promise<CandidateOutcome>; // §6.3
  finding(bullets: readonly string[]): Promise<CandidateOutcome>; // §6.4
  risk(risk: RiskNotice): Promise<CandidateOutcome>; // §6.5
  result(text: string): Promise<CandidateOutcome>; // §6.6
  artifact(label: string, url: string): Promise<CandidateOutcome>; // §6.7, http(s) only
  /**
   * §6.2: publishes a clarifying_question; resolves with the text of the next `say` on this room's
   * public topic that mentions `@{agentId}` (the user replies with say), or undefined if the
   * question was rejected, the mic was revoked, or `timeoutMs` passed since it was sent.
   */
  ask(question: string, timeoutMs?: number): Promise<string | undefined>;
}

/** What a task context needs from its client. */
export interface TaskRuntime {
  readonly from: From;
  readonly grants: GrantTracker;
  readonly grantWaitMs: number;
  readonly askTimeoutMs: number;
  nowSeconds(): number;
  newId(): string;
  submit(envelope: ResultEnvelope, roomId: string): Promise<CandidateOutcome>;
  /** Waits for the next say in `roomId` that mentions this agent. */
  nextMention(
    roomId: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): { readonly answer: Promise<string | undefined>; cancel(): void };
}

export interface TaskControl {
  readonly ctx: TaskContext;
  readonly key: GrantKey;
  stop(reason: MicRevokedError | AgentClosedError): void;
}

export function createTaskContext(envelope: TaskEnvelope, roomId: string, rt: TaskRuntime): TaskControl {
  const taskId = envelope.payload.task_id;
  const key: GrantKey = { roomId, agentId: rt.from.id, taskId };
  const controller = new AbortController();
  const signal = controller.signal;

  const publish = <T extends MessageType>(messageType: T, content: ContentOf<T>): Promise<CandidateOutcome> => {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let candidate: ResultEnvelope;
    try {
      candidate = buildEnvelope(
        {
          type: 'result',
          roomId,
          from: rt.from,
          payload: { task_id: taskId, message_type: messageType, content } as ResultPayload,
        },
        { newId: () => rt.newId(), now: rt.nowSeconds() },
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return rt.submit(candidate, roomId);
  };

  const waitForGrant = (timeoutMs = rt.grantWaitMs): Promise<GrantView | undefined> => {
    const current = rt.grants.get(key);
    if (isLive(current, rt.nowSeconds())) return Promise.resolve(current);
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const done = (grant: GrantView | undefined) => {
        clearTimeout(timer);
        off();
        signal.removeEventListener('abort', onAbort);
        resolve(grant);
      };
      const onAbort = () => done(undefined);
      const off = rt.grants.onChange((change) => {
        if (!sameKey(change.key, key) || (change.effect !== 'granted' && change.effect !== 'replaced')) return;
        done(rt.grants.get(key));
      });
      const timer = setTimeout(() => done(undefined), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };

  const ctx: TaskContext = {
    roomId,
    taskId,
    task: envelope.payload,
    envelope,
    revoked: signal,
    get grant() {
      return rt.grants.get(key);
    },
    waitForGrant,
    canSend(messageType) {
      const grant = rt.grants.get(key);
      return (
        !signal.aborted &&
        isLive(grant, rt.nowSeconds()) &&
        grant.remaining > 0 &&
        grant.allowedMessageTypes.includes(messageType)
      );
    },
    publish,
    ack: (text) => publish('ack', { text }),
    progress: (text) => publish('progress', { text }),
    finding: (bullets) => publish('finding', { bullets: [...bullets] }),
    risk: ({ text, severity, mitigation }) =>
      publish('risk', {
        text,
        ...(severity === undefined ? {} : { severity }),
        ...(mitigation === undefined ? {} : { mitigation }),
      }),
    result: (text) => publish('result', { text }),
    artifact: (label, url) => publish('artifact_link', { label, url }),
    async ask(question, timeoutMs = rt.askTimeoutMs) {
      if (signal.aborted) throw signal.reason as Error;
      // Listen before asking: a quick answer must not slip past.
      const waiting = rt.nextMention(roomId, timeoutMs, signal);
      let outcome: CandidateOutcome;
      try {
        outcome = await publish('clarifying_question', { question });
      } catch (error) {
        waiting.cancel();
        throw error;
      }
      if (outcome.status === 'rejected') {
        waiting.cancel();
        return undefined;
      }
      return waiting.answer;
    },
  };

  return {
    ctx,
    key,
    stop(reason) {
      if (!signal.aborted) controller.abort(reason);
    },
  };
}
