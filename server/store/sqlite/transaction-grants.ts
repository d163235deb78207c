// The mic grants one group-commit transaction reads and spends (sqlite-group-commit.ts). A grant is
// read once per transaction, spent in memory and written once, as the transaction's last
// statement: a busy grant costs one UPDATE per commit instead of one per approved message
// (docs/benchmarks.md, "Gateway"). Nothing else writes mic_grants inside a group transaction, and
// no transaction outlives one synchronous flush, so what is held here is the row as the
// transaction sees it. The verdict is shared/aor/stored-grants.ts's (decideSpend), which also
// names the reason when pg-room-store.ts's conditional UPDATE refuses.
import type Database from 'better-sqlite3';
import { decideSpend } from '@shared/aor/stored-grants';
import { toGrant, type GrantRow } from '../rows/room-rows';
import type { GrantRecord, SpendResult } from '../store';

interface Held {
  /** Changed in place: a spend copies nothing. */
  readonly grant: { -readonly [K in keyof GrantRecord]: GrantRecord[K] };
  /** Spent in this transaction and not yet written. */
  dirty: boolean;
}

const keyOf = (roomId: string, agentId: string, taskId: string) => `${roomId}\u0000${agentId}\u0000${taskId}`;

/** The grant row as stored (getGrant reads it so too, outside any transaction). */
export function readGrant(
  sql: (text: string) => Database.Statement,
  roomId: string,
  agentId: string,
  taskId: string,
): GrantRecord | undefined {
  const row = sql('SELECT * FROM mic_grants WHERE room_id = ? AND agent_id = ? AND task_id = ?').get(
    roomId,
    agentId,
    taskId,
  ) as GrantRow | undefined;
  return row && toGrant(row);
}

export class TransactionGrants {
  readonly #sql: (text: string) => Database.Statement;
  readonly #held = new Map<string, Held>();

  constructor(sql: (text: string) => Database.Statement) {
    this.#sql = sql;
  }

  /** The grant as this transaction sees it, spends included. */
  get(roomId: string, agentId: string, taskId: string): GrantRecord | undefined {
    return this.#hold(roomId, agentId, taskId)?.grant;
  }

  /** One message of the grant's budget, if it is live, in time and not used up (AOR §7). */
  spend(roomId: string, agentId: string, taskId: string, nowSeconds: number): SpendResult {
    const held = this.#hold(roomId, agentId, taskId);
    const verdict = decideSpend(held?.grant, nowSeconds);
    if (verdict.ok && held) {
      held.grant.spent = verdict.spent;
      held.dirty = true;
    }
    return verdict;
  }

  /** The commit hook: the spent counts, one UPDATE per grant spent. */
  write(): void {
    for (const { grant, dirty } of this.#held.values()) {
      if (!dirty) continue;
      this.#sql('UPDATE mic_grants SET spent = ? WHERE room_id = ? AND agent_id = ? AND task_id = ?').run(
        grant.spent,
        grant.roomId,
        grant.agentId,
        grant.taskId,
      );
    }
    this.#held.clear();
  }

  /** The rollback hook: what a failed transaction read or spent is gone with it. */
  forget(): void {
    this.#held.clear();
  }

  #hold(roomId: string, agentId: string, taskId: string): Held | undefined {
    const key = keyOf(roomId, agentId, taskId);
    const held = this.#held.get(key);
    if (held) return held;
    const grant = readGrant(this.#sql, roomId, agentId, taskId);
    if (!grant) return undefined;
    const fresh = { grant: { ...grant }, dirty: false };
    this.#held.set(key, fresh);
    return fresh;
  }
}
