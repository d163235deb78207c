// The process's Prometheus metrics (GET /metrics, routes/metrics.ts): one registry of its own,
// created by the composition root, and small subscribers on the domains' own event hooks, so no
// domain imports prom-client (decisions-server.md, "Metrics"). Every label comes from a bounded
// set (an outcome, a reject reason, an Agora error code, a topic kind, a connection kind): never an
// agent, room or operator id.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { REJECT_REASONS } from '@shared/aor/reject-reasons';
import type { DecidedCandidate } from '../gateway/gateway';
import type { RelayOutcome } from '../relay/agora-relay';
import type { StoredRoomMessage } from '../store/store';

/** Seconds; from a fraction of a millisecond (an in-memory wake-up, a small SQLite commit) to seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface SwitchboardMetrics {
  readonly registry: Registry;
  /** The text exposition of every metric, with its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
  gatewayDecided(decided: DecidedCandidate): void;
  roomMessageRecorded(row: Pick<StoredRoomMessage, 'topicKind'>): void;
  relayOutcome(outcome: RelayOutcome): void;
  longPollWoken(latencyMs: number): void;
  storeCommitted(engine: 'sqlite' | 'postgres', seconds: number): void;
  sessionOpened(how: 'login' | 'enroll'): void;
  webhookAttempt(outcome: 'delivered' | 'retry' | 'failed'): void;
  /** Gauges read at scrape time: long-polls waiting, MQTT connections by kind. */
  watch(sources: {
    readonly longPollsWaiting?: () => number;
    readonly mqttConnections?: () => { readonly agent: number; readonly console: number } | undefined;
  }): void;
}

export function createMetrics(): SwitchboardMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  const sources: Parameters<SwitchboardMetrics['watch']>[0] = {};

  const decisions = new Counter({
    name: 'switchboard_gateway_decisions_total',
    help: 'Candidates the AOR gateway decided, by outcome (approve, reject, review: held for a facilitator) and reject reason (AOR §5.7; "none" otherwise).',
    labelNames: ['outcome', 'reason'] as const,
    registers: [registry],
  });
  const roomMessages = new Counter({
    name: 'switchboard_room_messages_recorded_total',
    help: 'Room messages stored in history, by AOR §3 topic kind.',
    labelNames: ['topic_kind'] as const,
    registers: [registry],
  });
  const envelopes = new Counter({
    name: 'switchboard_relay_envelopes_total',
    help: 'Agora envelopes the relay verified or stored: accepted (stored), duplicate, or refused with its Agora error code and reason.',
    labelNames: ['outcome', 'code', 'reason'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'switchboard_relay_long_polls_waiting',
    help: 'GET /events long-polls waiting in this process.',
    registers: [registry],
    collect() {
      this.set(sources.longPollsWaiting?.() ?? 0);
    },
  });
  const wakeUps = new Histogram({
    name: 'switchboard_relay_long_poll_wakeup_seconds',
    help: 'From an envelope being stored to a waiting long-poll being answered with it.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'switchboard_mqtt_connections',
    help: 'Open MQTT connections of the embedded broker by kind (agent, console); absent with an external broker.',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      const counts = sources.mqttConnections?.();
      if (!counts) return;
      this.set({ kind: 'agent' }, counts.agent);
      this.set({ kind: 'console' }, counts.console);
    },
  });
  const commits = new Histogram({
    name: 'switchboard_store_commit_seconds',
    help: "How long one group commit's transaction took, by store engine.",
    labelNames: ['engine'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sessions = new Counter({
    name: 'switchboard_operator_sessions_opened_total',
    help: 'Operator sessions opened, by how (login, enroll).',
    labelNames: ['how'] as const,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'switchboard_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, will be tried again) or failed (given up).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  // Known series start at zero, so a rate() or an alert sees them before the first event.
  for (const outcome of ['approve', 'review'] as const) decisions.inc({ outcome, reason: 'none' }, 0);
  // A facilitator's review decision is not a gateway decision (onDecided hears the gateway's own).
  for (const reason of REJECT_REASONS)
    if (reason !== 'facilitator_rejected') decisions.inc({ outcome: 'reject', reason }, 0);
  for (const outcome of ['delivered', 'retry', 'failed'] as const) webhooks.inc({ outcome }, 0);
  envelopes.inc({ outcome: 'accepted', code: 'none', reason: 'none' }, 0);

  return {
    registry,
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    gatewayDecided(decided) {
      decisions.inc({ outcome: decided.kind, reason: decided.reason ?? 'none' });
      // What the gateway's transaction stored besides the candidate: the approved copy or the reject.
      roomMessages.inc({ topic_kind: 'public_candidates' });
      if (decided.kind === 'approve') roomMessages.inc({ topic_kind: 'public' });
      if (decided.kind === 'reject') roomMessages.inc({ topic_kind: 'control' });
    },
    roomMessageRecorded(row) {
      roomMessages.inc({ topic_kind: row.topicKind });
    },
    relayOutcome(outcome) {
      if (outcome.ok)
        envelopes.inc({ outcome: outcome.duplicate ? 'duplicate' : 'accepted', code: 'none', reason: 'none' });
      else envelopes.inc({ outcome: 'refused', code: outcome.code, reason: outcome.reason });
    },
    longPollWoken: (latencyMs) => wakeUps.observe(latencyMs / 1000),
    storeCommitted: (engine, seconds) => commits.observe({ engine }, seconds),
    sessionOpened: (how) => sessions.inc({ how }),
    webhookAttempt: (outcome) => webhooks.inc({ outcome }),
    watch(next) {
      Object.assign(sources, next);
    },
  };
}
