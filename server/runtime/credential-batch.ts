// Reads of agent credentials asked for in the same turn of the event loop go to the store together
// (decisions-server.md §72): the broker's sweep asks for every connected agent at once, and ten
// thousand point reads every two seconds would hold the event loop (SQLite) or the pool
// (PostgreSQL) for longer than the sweep's interval. Batches are cut at `maxBatch` ids, with a turn
// of the event loop between them so requests are answered meanwhile.
import type { AccessStore, AgentCredential } from '../store/store';

type Waiter = { resolve: (credential: AgentCredential | undefined) => void; reject: (error: unknown) => void };

export function batchedCredentials(
  access: Pick<AccessStore, 'getAgentCredentials'>,
  maxBatch = 1_000,
): (agentId: string) => Promise<AgentCredential | undefined> {
  let pending: Map<string, Waiter[]> | undefined;

  async function flush(batch: Map<string, Waiter[]>): Promise<void> {
    const ids = [...batch.keys()];
    for (let start = 0; start < ids.length; start += maxBatch) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = ids.slice(start, start + maxBatch);
      try {
        const found = new Map((await access.getAgentCredentials(chunk)).map((c) => [c.agentId, c] as const));
        for (const id of chunk) for (const waiter of batch.get(id)!) waiter.resolve(found.get(id));
      } catch (error) {
        for (const id of chunk) for (const waiter of batch.get(id)!) waiter.reject(error);
      }
    }
  }

  return (agentId) =>
    new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map<string, Waiter[]>();
        pending = batch;
        queueMicrotask(() => {
          pending = undefined;
          void flush(batch);
        });
      }
      const waiters = pending.get(agentId);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(agentId, [{ resolve, reject }]);
    });
}
