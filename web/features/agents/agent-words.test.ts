import { describe, expect, it } from 'vitest';
import type { AgentAccount } from '@web/lib/api/agent-accounts';
import { connectExample } from '@web/lib/agent-connect';
import { agentStatus, budgetWords, countWords, seenWords, statusWords, suspensionWords } from './agent-words';

const agent = (over: Partial<AgentAccount> = {}): AgentAccount => ({
  agentId: 'agent.a',
  createdAt: 0,
  suspended: null,
  connections: 0,
  lastSeenAt: null,
  rooms: [],
  grants: [],
  rejectsLastHour: 0,
  lastAction: null,
  ...over,
});

describe('agent status', () => {
  it('puts a suspension before connections, and counts connections where the broker can', () => {
    expect(
      agentStatus(agent({ suspended: { at: 1, by: 'cli', byName: null, reason: 'spam' }, connections: 2 }), 0),
    ).toEqual({
      kind: 'suspended',
      reason: 'spam',
    });
    expect(statusWords(agentStatus(agent({ connections: 1 }), 0))).toBe('Online · 1 connection');
    expect(statusWords(agentStatus(agent({ connections: 3 }), 0))).toBe('Online · 3 connections');
    expect(statusWords(agentStatus(agent({ connections: 0, lastSeenAt: 0 }), 0))).toBe('Offline');
  });

  it('on an external broker (no count) reads presence: heard within a minute is online', () => {
    expect(statusWords(agentStatus(agent({ connections: null, lastSeenAt: 1_000 }), 60_000))).toBe('Online');
    expect(statusWords(agentStatus(agent({ connections: null, lastSeenAt: 1_000 }), 61_001))).toBe('Offline');
    expect(statusWords(agentStatus(agent({ connections: null }), 0))).toBe('Offline');
  });
});

describe('words', () => {
  it('says when an agent was seen by the server clock', () => {
    expect(seenWords(null, 0)).toBe('never');
    expect(seenWords(10_000, 12_000)).toBe('just now');
    expect(seenWords(0, 42_000)).toBe('42 seconds ago');
    expect(seenWords(0, 5 * 60_000)).toBe('5 minutes ago');
    expect(seenWords(0, 3 * 3_600_000)).toBe('3 hours ago');
    expect(seenWords(0, 72 * 3_600_000)).toBe('3 days ago');
  });

  it('says the budget left, never below zero', () => {
    expect(budgetWords({ roomId: 'r', taskId: 't', maxMessages: 10, spent: 3, expiresAt: 0 })).toBe('7 of 10 left');
    expect(budgetWords({ roomId: 'r', taskId: 't', maxMessages: 2, spent: 5, expiresAt: 0 })).toBe('0 of 2 left');
  });

  it('builds a pasteable mosquitto_sub with the password quoted for the shell', () => {
    expect(connectExample('mqtt://10.0.0.5:1884', 'agent.a', "p'w")).toBe(
      `mosquitto_sub -h 10.0.0.5 -p 1884 -V mqttv5 -u 'agent.a' -P 'p'\\''w' -i 'agent.a' -t 'rooms/+/public' -v`,
    );
    expect(connectExample('mqtt://[::1]:1883', 'a', 'b')).toContain('-h ::1 -p 1883');
  });
});

describe('who suspended and resumed an agent', () => {
  it('says who, when and why, and keeps it after a resume', () => {
    const at = 1_000_000;
    expect(
      suspensionWords(
        agent({ suspended: { at, by: 'did:key:zAna', byName: 'Ana', reason: 'flooding' } }),
        at + 180_000,
      ),
    ).toBe('Suspended by Ana 3 minutes ago: “flooding”');
    expect(
      suspensionWords(
        agent({
          lastAction: {
            id: 9,
            action: 'agent.resume',
            at: at + 170_000,
            by: 'cli',
            byName: null,
            lifted: { at, by: 'did:key:zAna', byName: 'Ana', reason: 'flooding' },
          },
        }),
        at + 180_000,
      ),
    ).toBe('Resumed by the operator CLI 10 seconds ago; suspended by Ana 3 minutes ago: “flooding”');
    expect(suspensionWords(agent(), 0)).toBeNull();
    expect(
      suspensionWords(
        agent({ lastAction: { id: 1, action: 'agent.create', at: 0, by: 'cli', byName: null, lifted: null } }),
        0,
      ),
    ).toBeNull();
  });
});

describe('agent counts', () => {
  it('says how many agents, online and suspended, leaving out online where the broker cannot count', () => {
    expect(countWords({ total: 10_000, connected: 1204, suspended: 3 })).toBe(
      '10,000 agents · 1,204 online · 3 suspended',
    );
    expect(countWords({ total: 1, connected: null, suspended: 0 })).toBe('1 agent · 0 suspended');
  });
});
