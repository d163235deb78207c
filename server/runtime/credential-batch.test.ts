import { describe, expect, it } from 'vitest';
import type { AgentCredential } from '../store/store';
import { batchedCredentials } from './credential-batch';

const credential = (agentId: string): AgentCredential => ({
  agentId,
  passwordHash: `sha256$${agentId}`,
  createdAt: 0,
  suspended: null,
  disconnectedAt: null,
});

function counting(known: (id: string) => boolean, fail = false) {
  const calls: string[][] = [];
  return {
    calls,
    access: {
      getAgentCredentials: async (ids: readonly string[]) => {
        calls.push([...ids]);
        if (fail) throw new Error('store down');
        return ids.filter(known).map(credential);
      },
    },
  };
}

describe('batched credential reads', () => {
  it('answers every read asked for in one turn from reads of at most maxBatch ids', async () => {
    const { calls, access } = counting((id) => !id.endsWith('7'));
    const get = batchedCredentials(access, 1_000);
    const ids = Array.from({ length: 2_500 }, (_, i) => `agent.${i}`);
    const got = await Promise.all([...ids, 'agent.1'].map(get));
    expect(calls.map((c) => c.length)).toEqual([1_000, 1_000, 500]);
    expect(got[1]).toEqual(credential('agent.1'));
    expect(got[7]).toBeUndefined();
    expect(got[2_500]).toEqual(credential('agent.1'));
    // A later turn is a read of its own.
    expect(await get('agent.2')).toEqual(credential('agent.2'));
    expect(calls).toHaveLength(4);
  });

  it('fails every read of a batch the store could not answer', async () => {
    const get = batchedCredentials(counting(() => true, true).access);
    await expect(Promise.all([get('a'), get('b')])).rejects.toThrow('store down');
  });
});
