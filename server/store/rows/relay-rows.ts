// The relay's envelopes, threads and directory as rows, and their mapping to relay-store.ts's
// records: the same columns on both engines, so one mapping serves both.
import type { ThreadState } from '@shared/agora/thread-state';
import type { DirectoryRecord, StoredRelayEnvelope, ThreadRecord } from '../relay-store';

export interface EnvelopeRow {
  seq: number;
  id: string;
  kind: 'event' | 'registration';
  digest: string;
  type: string;
  sender: string;
  recipient: string | null;
  thread_id: string;
  ts: number;
  received_at: number;
  expires_at: number;
  json: string;
}

export interface ThreadRow {
  thread_id: string;
  state: string;
  version: number;
  opened_at: number;
  updated_at: number;
  deadline_at: number | null;
}

export interface DirectoryRow {
  did: string;
  manifest: string;
  scope: 'public' | 'private';
  authorized_agents: string;
  aor_agent_id: string | null;
  endpoint: string | null;
  registered_at: number;
  envelope_id: string;
}

export const toEnvelope = (row: EnvelopeRow): StoredRelayEnvelope => ({
  seq: row.seq,
  id: row.id,
  kind: row.kind,
  digest: row.digest,
  type: row.type,
  sender: row.sender,
  recipient: row.recipient,
  threadId: row.thread_id,
  ts: row.ts,
  receivedAt: row.received_at,
  expiresAt: row.expires_at,
  json: row.json,
});

export const toThread = (row: ThreadRow): ThreadRecord => ({
  threadId: row.thread_id,
  state: JSON.parse(row.state) as ThreadState,
  version: row.version,
  openedAt: row.opened_at,
  updatedAt: row.updated_at,
  deadlineAt: row.deadline_at,
});

export const toDirectory = (row: DirectoryRow): DirectoryRecord => ({
  did: row.did,
  manifest: JSON.parse(row.manifest) as Record<string, unknown>,
  scope: row.scope,
  authorizedAgents: JSON.parse(row.authorized_agents) as string[],
  aorAgentId: row.aor_agent_id,
  endpoint: row.endpoint,
  registeredAt: row.registered_at,
  envelopeId: row.envelope_id,
});

/** The parties column: everyone a thread names, as ` did1 did2 ` so `LIKE '% did %'` finds a party without a join table. */
export function partiesOf(state: ThreadState): string {
  if (state.status === 'OPEN') return ' ';
  const dids = new Set<string>([
    state.client,
    ...(state.addressedTo ? [state.addressedTo] : []),
    ...state.offers.map((o) => o.agent),
  ]);
  return ` ${[...dids].join(' ')} `;
}
