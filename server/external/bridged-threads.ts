// Thread views over envelopes bridged from external relays: the shared
// thread machine folds the *trusted* envelopes of a thread in the order they arrived here, as
// the built-in relay folds its own. An untrusted envelope is listed with its reason and never
// applied; a trusted one the machine refuses (say its REQUEST was never bridged) is listed with
// the refusal. Timeouts are left to the external relay, which emits no envelope for them
// (decisions-agora.md §23, §33).
import { Envelope } from '@shared/agora/envelope';
import { expectedMessages, openThread, type ThreadState } from '@shared/agora/thread-state';
import { transition, type ThreadResult } from '@shared/agora/thread-transition';
import type { BridgedEnvelope } from '../store/service-registry-store';

export interface BridgedEventView {
  readonly seq: number;
  readonly receivedAt: number;
  readonly envelope: unknown;
  readonly trusted: boolean;
  /** Why it is not trusted, or why the thread machine refused it; null when applied. */
  readonly reason: string | null;
  readonly applied: boolean;
}

export interface BridgedThreadView {
  readonly id: string;
  readonly serviceId: string;
  readonly status: ThreadState['status'];
  readonly state: ThreadState;
  readonly openedAt: number;
  readonly updatedAt: number;
  readonly expected: readonly string[];
  readonly untrusted: number;
}

export function foldBridgedThread(
  serviceId: string,
  threadId: string,
  rows: readonly BridgedEnvelope[],
): { thread: BridgedThreadView; events: BridgedEventView[] } {
  let state: ThreadState = openThread(threadId);
  const verdicts = new Map<number, { applied: boolean; reason: string | null }>();
  const pending: { row: BridgedEnvelope; envelope: Envelope }[] = [];
  for (const row of rows) {
    if (!row.trusted) {
      verdicts.set(row.seq, { applied: false, reason: row.reason });
      continue;
    }
    const parsed = Envelope.safeParse(JSON.parse(row.json));
    if (parsed.success) pending.push({ row, envelope: parsed.data });
    else verdicts.set(row.seq, { applied: false, reason: 'schema_invalid' });
  }
  // Two polls (to and from an identity) may bring an OFFER here before its REQUEST: apply in
  // arrival order, then retry what was refused while a pass still applies something (§33).
  const appliedOrder: number[] = [];
  let progress = true;
  while (progress) {
    progress = false;
    for (const item of pending) {
      if (verdicts.get(item.row.seq)?.applied) continue;
      const next: ThreadResult = transition(state, {
        type: 'message',
        envelope: item.envelope,
        now: item.row.receivedAt,
      });
      if (next.ok) {
        state = next.value;
        progress = true;
        verdicts.set(item.row.seq, { applied: true, reason: null });
        appliedOrder.push(item.row.seq);
      } else
        verdicts.set(item.row.seq, { applied: false, reason: String(next.error.details?.reason ?? next.error.code) });
    }
  }
  // Shown in the order the thread took them (REQUEST, OFFER, ACCEPT, RESULT, whatever order the
  // polls brought them in), then what was not applied, in arrival order.
  const position = new Map(appliedOrder.map((seq, i) => [seq, i]));
  const ordered = [...rows].sort(
    (x, y) => (position.get(x.seq) ?? Infinity) - (position.get(y.seq) ?? Infinity) || x.seq - y.seq,
  );
  const events: BridgedEventView[] = ordered.map((row) => ({
    seq: row.seq,
    receivedAt: row.receivedAt,
    envelope: JSON.parse(row.json) as unknown,
    trusted: row.trusted,
    ...verdicts.get(row.seq)!,
  }));
  return {
    thread: {
      id: threadId,
      serviceId,
      status: state.status,
      state,
      openedAt: rows[0]?.receivedAt ?? 0,
      updatedAt: rows[rows.length - 1]?.receivedAt ?? 0,
      expected: expectedMessages(state),
      untrusted: rows.filter((r) => !r.trusted).length,
    },
    events,
  };
}

/** Every bridged thread, grouped by service and thread, most recently updated first. */
export function foldBridgedThreads(rows: readonly BridgedEnvelope[]): BridgedThreadView[] {
  const groups = new Map<string, BridgedEnvelope[]>();
  for (const row of rows) {
    if (row.threadId === null) continue;
    const key = `${row.serviceId}\u0000${row.threadId}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()]
    .map((g) => foldBridgedThread(g[0]!.serviceId, g[0]!.threadId!, g).thread)
    .sort((a, b) => b.updatedAt - a.updatedAt);
}
