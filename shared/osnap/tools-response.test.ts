import { describe, expect, it } from 'vitest';
import type { AgentEntry } from './agent-entry';
import { OsnapMessage } from './message';
import type { OsnapMessageOf } from './message';
import { answerToolsQuery, isTaskTool, toolsPayloadFromEntry } from './tools-response';
import { toolsQueryExample, toolsResponseExample } from './test-support/examples';

// The agent behind §3.4's example response, as a registry entry.
const entry: AgentEntry = {
  agent_id: 'agent-456',
  scope: 'public',
  tools: {
    schedule_meeting: {
      description: 'Schedules a meeting with the specified participants, date, and time',
      request_format: { participants: 'list of email addresses', date: 'string (YYYY-MM-DD)', time: 'string (HH:mm)' },
      SLA: '60 minutes',
    },
    get_weather: {
      description: 'Provides weather information for a given location and date',
      plugin: 'WeatherPlugin',
      request_format: { location: 'string', date: 'string (YYYY-MM-DD)' },
    },
  },
};
const query = OsnapMessage.parse(toolsQueryExample) as OsnapMessageOf<'tools_query'>;

describe('tools_response from a registry entry', () => {
  it('reproduces the §3.4 example', () => {
    expect(toolsPayloadFromEntry(entry)).toEqual(toolsResponseExample.payload);
    expect(answerToolsQuery(query, entry, Date.UTC(2023, 3, 29, 10, 32))).toEqual({
      ...toolsResponseExample,
      metadata: { timestamp: '2023-04-29T10:32:00.000Z' },
    });
  });

  it('classifies by kind first, then by the presence of an SLA', () => {
    expect(isTaskTool({ description: 'd', kind: 'task' })).toBe(true);
    expect(isTaskTool({ description: 'd', kind: 'information', SLA: '1 hour' })).toBe(false);
    expect(isTaskTool({ description: 'd', SLA: '1 hour' })).toBe(true);
    expect(isTaskTool({ description: 'd' })).toBe(false);
    const payload = toolsPayloadFromEntry({
      agent_id: 'a',
      scope: 'public',
      tools: { b: { description: 'b', kind: 'task' }, a: { description: 'a' } },
    });
    expect(payload).toEqual({
      information_tools: [{ name: 'a', description: 'a' }],
      task_tools: [{ name: 'b', description: 'b' }],
    });
  });

  it('builds a message the schema accepts', () => {
    expect(OsnapMessage.safeParse(answerToolsQuery(query, entry, 0)).success).toBe(true);
  });

  it('answers nothing about a private agent to an asker it does not authorize', () => {
    const hidden: AgentEntry = { ...entry, scope: 'private', authorized_agents: ['agent-999'] };
    expect(answerToolsQuery(query, hidden, 0)).toBeUndefined();
    expect(answerToolsQuery(query, { ...hidden, authorized_agents: ['agent-123'] }, 0)?.receiver_agent_id).toBe(
      'agent-123',
    );
  });
});
