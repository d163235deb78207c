// The AOR gateway (spec §7): the broker hands it each candidate on `rooms/+/public_candidates`
// before routing it (admitCandidate, decisions-server.md §30). It decides with the pure rules in
// shared/aor, spends a grant's budget atomically in the database, and republishes approved
// messages byte for byte to `rooms/{roomId}/public`, or emits `reject` on `rooms/{roomId}/control`.
// In review mode a candidate that passes waits for a facilitator instead (review-decisions.ts).
import {
  agentEndRevokeReason,
  buildAgentEndRevoke,
  buildGrantEndRevoke,
  type AgentEnd,
} from '@shared/aor/control-envelopes';
import { readCandidate } from '@shared/aor/decide-candidate';
import { parseEnvelope } from '@shared/aor/envelope';
import { applyControl, emptyGrantState, withGrant } from '@shared/aor/mic-grants';
import { isRejectReason, RejectReason } from '@shared/aor/reject-reasons';
import { controlTopic, parseTopic } from '@shared/aor/topics';
import type { BrokerMessage, BrokerPort } from '../mqtt/broker-port';
import { isCandidateTopic, UnknownRoomError, type HistoryRecorder } from '../rooms/history-recorder';
import type {
  CandidateDecision,
  CandidateJudgement,
  GrantRecord,
  NewRoomMessage,
  ReviewItem,
  SpendResult,
  StoredRoomMessage,
  Store,
} from '../store/store';
import { toCoreGrant } from './grant-records';
import { decisionOf, reusedIdVerdict, verdictOf, type CandidateRead, type RejectRow } from './candidate-verdict';
import { encode, GatewayPublisher, seconds } from './gateway-publisher';
import { RecentCandidates, type HandedOver } from './recent-candidates';
import { ReviewDecisions } from './review-decisions';
import { reviewNotice, reviewTopicOf } from './review-notices';
import { undecidedCandidates } from './undecided-candidates';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('gateway');

export interface GatewayDeps {
  readonly broker: BrokerPort;
  readonly store: Store;
  readonly history: HistoryRecorder;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly newId: () => string;
  /**
   * admitCandidate resolves only once the broker has acknowledged the decision's hand-over (an
   * external broker: the candidate's PUBACK then proves its outcome reached the broker, §35).
   * Off (the embedded broker), the hand-over is not waited for: the broker dies with the process.
   */
  readonly confirmHandOver?: boolean;
}

/** A candidate's stored decision, as the gateway's listeners hear it (the inbox's reject counts). */
export interface DecidedCandidate {
  readonly roomId: string;
  /** The agent the broker authenticated as the candidate's publisher; null when it could not say. */
  readonly agentId: string | null;
  readonly kind: 'approve' | 'reject' | 'review';
  /** A reject's AOR §5.7 reason (one of REJECT_REASONS); null for approve and review. */
  readonly reason: RejectReason | null;
  /** Epoch ms: when the decision's outcome (an approved copy, a reject) was stored. */
  readonly at: number;
}

/** The reason a stored reject carries: the refused spend's, or the one in the reject row's payload. */
function rejectReasonOf(decision: CandidateDecision, spend: SpendResult | undefined): RejectReason | null {
  if (spend && !spend.ok) return spend.reason;
  if (decision.kind !== 'reject') return null;
  try {
    const reason = (JSON.parse(new TextDecoder().decode(decision.reject.payload)) as { payload?: { reason?: unknown } })
      .payload?.reason;
    return isRejectReason(reason) ? reason : null;
  } catch {
    return null;
  }
}

/** Whether a publish is a candidate, for the embedded broker's beforeRoute to hand to admitCandidate. */
export const isCandidate = (message: BrokerMessage) => isCandidateTopic(message.topic);

/** A decision stored but not accepted by the broker (admitCandidate with confirmHandOver). */
class HandOverFailed extends Error {
  override readonly name = 'HandOverFailed';
}

/** What the memory of recent candidates knows a candidate by: room, authenticated agent, envelope id. */
const candidateKey = (roomId: string, read: CandidateRead) =>
  read.ok ? ([roomId, read.value.grantKey.agentId, read.value.envelope.id] as const) : undefined;

export class Gateway {
  readonly #deps: GatewayDeps;
  readonly #unsubscribe: (() => void)[] = [];
  /** Serializes work per room so a room's decisions happen in the order its messages arrived. */
  readonly #queues = new Map<string, Promise<void>>();
  /** Admitted candidates by agent and id: a retry after a crash is not decided twice. */
  readonly #recent = new RecentCandidates();
  /** Candidates submitted to the store whose commit (and hand-over) is still to come. */
  readonly #inFlight = new Set<Promise<void>>();
  /** Set once recover() has run; until then admitted candidates wait for it. */
  #recovered = false;
  #recoveryDone!: () => void;
  readonly #recovery = new Promise<void>((resolve) => (this.#recoveryDone = resolve));
  readonly #publisher: GatewayPublisher;
  readonly #review: ReviewDecisions;
  readonly #decided = new Set<(decided: DecidedCandidate) => void>();
  /** Per agent, the ending of its grants under way: the next one starts after it (endAgentGrants). */
  readonly #agentEnds = new Map<string, Promise<GrantRecord[]>>();

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    this.#publisher = new GatewayPublisher(deps);
    this.#review = new ReviewDecisions(deps, this.#publisher, (roomId, agentId, taskId) =>
      this.#endGrant(roomId, agentId, taskId, RejectReason.messageLimitExceeded),
    );
  }

  /**
   * Decides candidates and follows grants; `sweepEveryMs` also sweeps expired grants here, and
   * `false` leaves that to `sweepEvery` (several instances: only the one running the cluster's
   * timers sweeps, server/cluster/run-once.ts).
   */
  start(sweepEveryMs: number | false = 1_000): void {
    const { broker } = this.#deps;
    // Shared: a grant is applied by the instance whose console published it
    // (docs/decisions-cluster.md); candidates come through admitCandidate.
    this.#unsubscribe.push(
      broker.onMessage('rooms/+/control', (m) => this.#enqueue(m, () => this.handleControl(m)), { shared: true }),
    );
    if (sweepEveryMs !== false) this.#unsubscribe.push(this.sweepEvery(sweepEveryMs));
  }

  /** Ends expired grants every `everyMs`, on a timer that does not keep the process alive; returns how to stop. */
  sweepEvery(everyMs = 1_000): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sweep()
        .catch((error: unknown) => log.error({ err: error }, 'grant sweep failed'))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Decides candidates stored (so acknowledged) before a crash or stop but never decided, each in
   * its room's queue, and remembers every candidate it read: a live copy of one (a redelivery, or
   * one recorded just before this ran) is then not decided again. Returns how many it found.
   */
  async recover(): Promise<number> {
    const found = await this.#recoverRooms();
    this.#recovered = true;
    this.#recoveryDone();
    return found;
  }

  async #recoverRooms(): Promise<number> {
    let found = 0;
    for (const room of await this.#deps.store.rooms.listRooms()) {
      await this.#enqueueRoom(room.id, async () => {
        const seen: StoredRoomMessage[] = [];
        const decisions = new Map<string, StoredRoomMessage>();
        const pending = await undecidedCandidates(
          this.#deps.store,
          room.id,
          (m) => seen.push(m),
          (id, m) => void (decisions.has(id) || decisions.set(id, m)),
        );
        this.#recent.rememberStored(room.id, seen, decisions);
        for (const row of pending) {
          found++;
          // The agent the broker authenticated is the candidate's topic agent (history-recorder.ts).
          const read = this.#read(room.id, {
            topic: row.topic,
            payload: row.payload,
            publisher: { kind: 'agent', agentId: row.topicAgentId! },
            receivedAt: row.receivedAt,
          });
          await this.#record(row, read, { reusedId: false, forgetOnFailure: false });
        }
      });
    }
    return found;
  }

  /** Hears every decision this gateway stores, in commit order; returns the unsubscribe. */
  onDecided(listener: (decided: DecidedCandidate) => void): () => void {
    this.#decided.add(listener);
    return () => this.#decided.delete(listener);
  }

  #tellDecided(decided: DecidedCandidate): void {
    for (const listener of [...this.#decided]) {
      try {
        listener(decided);
      } catch (error) {
        log.error({ err: error }, 'a gateway decision listener failed');
      }
    }
  }

  async stop(): Promise<void> {
    for (const off of this.#unsubscribe.splice(0)) off();
    await Promise.all(this.#queues.values());
    await Promise.allSettled(this.#inFlight);
  }

  #enqueue(message: BrokerMessage, work: () => Promise<void>): void {
    void this.#enqueueRoom(message.topic.split('/')[1] ?? '', work).catch((error: unknown) =>
      log.error({ topic: message.topic, err: error }, 'the gateway failed on a message'),
    );
  }

  /** Runs `work` after everything already queued for the room; rejects with its error. */
  #enqueueRoom<T>(room: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(room) ?? Promise.resolve();
    const result = previous.then(work);
    // The queue itself never rejects: one failure must not stop the room.
    const next = result.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(room, next);
    void next.finally(() => {
      if (this.#queues.get(room) === next) this.#queues.delete(room);
    });
    return result;
  }

  /** Reads a candidate's bytes as its topic and the broker's authenticated identity allow. */
  #read(roomId: string, message: BrokerMessage): CandidateRead {
    // An external broker cannot say who published; without an identity nothing is approved.
    const agentId = message.publisher?.kind === 'agent' ? message.publisher.agentId : '';
    return readCandidate({ bytes: message.payload, topicRoomId: roomId, authenticatedAgentId: agentId });
  }

  /**
   * A candidate on the embedded broker, before the broker routes it (decisions-server.md §30): it
   * is stored together with its decision in one transaction, and the approved copy (or the
   * reject) is handed to the broker as soon as that commits, without waiting for the broker's
   * delivery callback. Resolves once the candidate is stored; throws RefusedPublish for a topic
   * outside the §3 map or a room nobody created.
   *
   * Decisions are pipelined: the room's next candidate is judged while this one's transaction
   * waits for its group commit, and the store runs the transactions in the order they were
   * submitted, so history, spends and deliveries all follow the room's order. A judgement made
   * before an earlier spend committed can only be too generous with the budget, and the spend in
   * the transaction has the last word: a refused spend stores and publishes a reject instead.
   */
  admitCandidate(message: BrokerMessage): Promise<void> {
    // Before recovery the memory of decided candidates is empty: a redelivered one would be
    // decided twice. Candidates that arrive that early wait, in their order (decisions-server.md §34).
    if (!this.#recovered) return this.#recovery.then(() => this.admitCandidate(message));
    const roomId = this.#deps.history.roomOf(message);
    const read = this.#read(roomId, message);
    // History's columns from the strict read's envelope: the bytes are parsed once.
    const row = this.#deps.history.describe(message, read.ok ? read.value.envelope : undefined);
    const submitted = this.#enqueueRoom(roomId, async () => {
      if (!(await this.#deps.history.roomExists(roomId))) throw new UnknownRoomError('unknown_room');
      const key = candidateKey(roomId, read);
      const seen = key ? this.#recent.admit(...key, message.payload) : 'new';
      // The same bytes again: a transport retry of a candidate already decided. Acknowledged and
      // not decided again (decisions-server.md §30); after a restart its decision is handed over
      // once more (§35).
      if (seen === 'same') {
        const again = this.#recent.takeDecision(...key!);
        return { recorded: again ? this.#handOverDecision(key!, again) : Promise.resolve() };
      }
      return { recorded: this.#record(row, read, { reusedId: seen === 'different', forgetOnFailure: seen === 'new' }) };
    });
    return submitted.then(({ recorded }) => recorded);
  }

  /**
   * Stores a candidate's decision, and the candidate with it unless history holds it already
   * (recovery), then reacts in commit order: hands the approved copy or the reject over, announces
   * a review item, ends a grant whose budget this spend used up. Settles as admitCandidate does.
   * `forgetOnFailure`: a candidate that was not stored must be decided when it comes again.
   */
  #record(
    row: NewRoomMessage | StoredRoomMessage,
    read: CandidateRead,
    options: { readonly reusedId: boolean; readonly forgetOnFailure: boolean },
  ): Promise<void> {
    const { roomId } = row;
    const key = candidateKey(roomId, read);
    const decide = this.#decider(row, read, options.reusedId);
    const grantKey = read.ok ? { agentId: read.value.grantKey.agentId, taskId: read.value.grantKey.taskId } : undefined;
    // Not awaited by the room's queue (the pipelining above); reactions run in commit order, so
    // handing over in this callback keeps deliveries in history's order.
    const recorded = this.#deps.store.rooms
      .recordCandidate(row, { grantKey, decide })
      .then(({ decision, ...record }) => {
        const outcome = record.outgoing ? this.#handOverDecision(key, record.outgoing) : undefined;
        this.#tellDecided({
          roomId,
          agentId: row.topicAgentId,
          kind: record.spend && !record.spend.ok ? 'reject' : decision.kind,
          reason: rejectReasonOf(decision, record.spend),
          // A reject's own time, as history keeps it (a restart reads the same).
          at: (record.outgoing ?? record.candidate).receivedAt,
        });
        if (record.reviewItem) void this.#handOver(reviewTopicOf(roomId), reviewNotice(record.reviewItem));
        if (decision.kind === 'approve' && record.spend?.ok && record.spend.remaining === 0) {
          void this.#enqueueRoom(roomId, () =>
            this.#endGrant(roomId, decision.agentId, decision.taskId, RejectReason.messageLimitExceeded),
          ).catch((error: unknown) => log.error({ roomId, err: error }, 'the gateway could not end a spent grant'));
        }
        return outcome;
      });
    this.#inFlight.add(recorded);
    void recorded.then(
      () => this.#inFlight.delete(recorded),
      (error: unknown) => {
        this.#inFlight.delete(recorded);
        if (key && options.forgetOnFailure && !(error instanceof HandOverFailed)) this.#recent.forget(...key);
      },
    );
    return recorded;
  }

  /**
   * The §7 decision the candidate's transaction makes with the grant and room it reads. Returned
   * rather than assigned to a name: tsx (esbuild's keepNames) gives every arrow assigned to a
   * name a defineProperty call each time it is created (decisions-server.md §37).
   */
  #decider(
    row: NewRoomMessage | StoredRoomMessage,
    read: CandidateRead,
    reusedId: boolean,
  ): CandidateJudgement['decide'] {
    const now = this.#deps.now();
    const rejectRow = this.#rejectRows(row.roomId, now);
    return (grant, room) =>
      decisionOf(
        reusedId && read.ok ? reusedIdVerdict(read.value) : verdictOf(read, grant, room, now),
        row,
        now,
        rejectRow,
      );
  }

  /** How a decision stores a reject: on the room's control topic, received `now`. */
  #rejectRows(roomId: string, now: number): RejectRow {
    return (reason, detail, messageId, taskId) =>
      this.#deps.history.describe({
        topic: controlTopic(roomId),
        payload: encode(this.#publisher.rejectEnvelope(roomId, reason, detail, messageId, taskId)),
        publisher: null,
        receivedAt: now,
      });
  }

  /**
   * Hands a stored decision over. With confirmHandOver, settles with the broker's
   * acknowledgement, and a failure keeps the decision to hand over when the candidate comes again
   * (§35); without, settles at once.
   */
  #handOverDecision(key: readonly [string, string, string] | undefined, decision: HandedOver): Promise<void> {
    const published = this.#handOver(decision.topic, decision.payload);
    if (!this.#deps.confirmHandOver) return Promise.resolve();
    return published.catch((error: unknown) => {
      if (key) this.#recent.keepDecision(...key, decision);
      throw new HandOverFailed((error as Error).message);
    });
  }

  /** Publishes at once (calls in order are delivered in order); settles with the broker's acknowledgement. */
  #handOver(topic: string, payload: Uint8Array): Promise<void> {
    const published = this.#deps.broker.publish(topic, payload, 1);
    published.catch((error: unknown) => log.error({ topic, err: error }, 'the gateway could not publish'));
    return published;
  }

  /** Ends a live grant with a control event (AOR has no "grant ended" type: a system revoke). */
  async #endGrant(
    roomId: string,
    agentId: string,
    taskId: string,
    reason: 'mic_grant_expired' | 'message_limit_exceeded',
  ): Promise<void> {
    const stored = await this.#deps.store.rooms.getGrant(roomId, agentId, taskId);
    if (!stored) return;
    if (!(await this.#deps.store.rooms.endGrant(roomId, agentId, taskId, reason, this.#deps.now()))) return;
    await this.#publisher.publish(
      controlTopic(roomId),
      encode(buildGrantEndRevoke(toCoreGrant(stored), reason, this.#publisher.stamp())),
    );
    if (reason === 'mic_grant_expired') await this.#review.expireQueue(roomId, agentId, taskId);
  }

  async handleControl(message: BrokerMessage): Promise<void> {
    const topic = parseTopic(message.topic);
    if (!topic.ok || topic.value.kind !== 'control') return;
    // Grants come only from facilitators (the ACL lets no one else publish here) or the gateway.
    if (message.publisher && !(message.publisher.kind === 'operator' && message.publisher.role === 'facilitator'))
      return;
    const parsed = parseEnvelope(message.payload);
    if (!parsed.ok) return;
    const envelope = parsed.value;
    if (envelope.type !== 'mic_grant' && envelope.type !== 'mic_revoke') return;
    const roomId = topic.value.roomId;
    const { agent_id: agentId, task_id: taskId } = envelope.payload;
    // Candidates admitted before this grant or revoke are decided before it changes anything.
    await Promise.allSettled(this.#inFlight);
    const current = await this.#deps.store.rooms.getGrant(roomId, agentId, taskId);
    const state = current ? withGrant(emptyGrantState, toCoreGrant(current)) : emptyGrantState;
    const outcome = applyControl(state, envelope, roomId);
    if (!outcome.ok) return;
    if (outcome.value.effect === 'granted' || outcome.value.effect === 'replaced') {
      if (envelope.type !== 'mic_grant') return;
      const p = envelope.payload;
      await this.#deps.store.rooms.putGrant({
        roomId,
        agentId,
        taskId,
        maxMessages: p.max_messages,
        allowedTypes: p.allowed_message_types,
        expiresAt: p.expires_at,
        grantedAt: envelope.ts,
        grantMessageId: envelope.id,
      });
    } else if (outcome.value.effect === 'revoked') {
      const reason = envelope.type === 'mic_revoke' ? (envelope.payload.reason ?? 'revoked') : 'revoked';
      await this.#deps.store.rooms.endGrant(roomId, agentId, taskId, `revoked: ${reason}`, this.#deps.now());
      await this.#review.expireQueue(roomId, agentId, taskId);
    }
  }

  /**
   * Ends every live grant of a suspended or removed agent, each with a revoke whose reason says
   * why, and expires their pending review items as a revoke does (decisions-server.md §62, §72).
   * In the room's order with its candidates; answers the grants this call ended (another call or
   * instance may end some).
   */
  endAgentGrants(agentId: string, end: AgentEnd): Promise<GrantRecord[]> {
    // One at a time per agent: a second call (the broker closing the agent's connection) answers
    // only once the first call's revokes are published, never while they are on their way.
    const before = this.#agentEnds.get(agentId);
    const run = (before ?? Promise.resolve([])).catch(() => []).then(() => this.#endAgentGrants(agentId, end));
    this.#agentEnds.set(agentId, run);
    const forget = () => void (this.#agentEnds.get(agentId) === run && this.#agentEnds.delete(agentId));
    run.then(forget, forget);
    return run;
  }

  async #endAgentGrants(agentId: string, end: AgentEnd): Promise<GrantRecord[]> {
    const ended: GrantRecord[] = [];
    for (const grant of await this.#deps.store.rooms.listGrants({ active: true })) {
      if (grant.agentId !== agentId) continue;
      const { roomId, taskId } = grant;
      const done = await this.#enqueueRoom(roomId, async () => {
        const reason = `revoked: ${agentEndRevokeReason(end)}`;
        if (!(await this.#deps.store.rooms.endGrant(roomId, agentId, taskId, reason, this.#deps.now()))) return false;
        const revoke = buildAgentEndRevoke(toCoreGrant(grant), end, this.#publisher.stamp());
        await this.#publisher.publish(controlTopic(roomId), encode(revoke));
        await this.#review.expireQueue(roomId, agentId, taskId);
        return true;
      });
      if (done) ended.push(grant);
    }
    return ended;
  }

  /** Ends grants whose time ran out, each with a control event. */
  async sweep(): Promise<void> {
    for (const grant of await this.#deps.store.rooms.listExpiredLiveGrants(seconds(this.#deps.now()))) {
      await this.#endGrant(grant.roomId, grant.agentId, grant.taskId, RejectReason.micGrantExpired);
    }
  }

  // Review mode (review-decisions.ts).

  /**
   * Claims the item, spends the grant and stores the approved copy in one transaction; a grant
   * that refuses turns the approval into a reject with the grant's reason.
   */
  approveReview(itemId: number, by: string): Promise<ReviewItem | undefined> {
    return this.#review.approve(itemId, by);
  }

  rejectReview(itemId: number, by: string, reason: string): Promise<ReviewItem | undefined> {
    return this.#review.reject(itemId, by, reason);
  }

  releaseReview(itemId: number, by: string, reason: string): Promise<ReviewItem | undefined> {
    return this.#review.release(itemId, by, reason);
  }

  /** Tells every console watching the room that its moderation mode changed. */
  announceModeration(roomId: string, moderation: 'auto' | 'review'): Promise<void> {
    return this.#review.announceModeration(roomId, moderation);
  }
}
