import { describe, expect, it } from 'vitest';
import { CORE_MESSAGE_TYPES, DISCOVERY_MESSAGE_TYPES, MESSAGE_TYPES, OsnapMessage } from './message';
import {
  agentsResponseExample,
  errorHandlingExample,
  requestExample,
  responseExample,
  statusUpdateExample,
  taskExecutionExample,
  toolsQueryExample,
  toolsResponseExample,
} from './test-support/examples';

describe('OsnapMessage schema', () => {
  it('names the five message types of §3.2 and the discovery types of §3.3-3.4', () => {
    expect(CORE_MESSAGE_TYPES).toEqual(['request', 'response', 'task_execution', 'status_update', 'error_handling']);
    expect(DISCOVERY_MESSAGE_TYPES).toEqual(['agents_query', 'agents_response', 'tools_query', 'tools_response']);
    expect(MESSAGE_TYPES).toHaveLength(9);
  });

  it('accepts every example of the spec unchanged', () => {
    const agentsResponse = { ...responseExample, message_type: 'agents_response', payload: agentsResponseExample };
    for (const example of [
      requestExample,
      responseExample,
      taskExecutionExample,
      statusUpdateExample,
      errorHandlingExample,
      toolsQueryExample,
      toolsResponseExample,
      agentsResponse,
    ]) {
      expect(OsnapMessage.parse(example), example.message_type).toEqual(example);
    }
  });

  it('takes agents_query with or without capability and scope', () => {
    const query = { ...toolsQueryExample, message_type: 'agents_query' };
    expect(OsnapMessage.safeParse(query).success).toBe(true);
    expect(
      OsnapMessage.safeParse({ ...query, payload: { capability: 'example_capability', scope: 'public' } }).success,
    ).toBe(true);
    expect(OsnapMessage.safeParse({ ...query, payload: { scope: 'secret' } }).success).toBe(false);
  });

  it('requires sender, receiver, type, metadata.timestamp, and the payload its type needs', () => {
    const without = (key: string) => Object.fromEntries(Object.entries(requestExample).filter(([k]) => k !== key));
    for (const key of ['sender_agent_id', 'receiver_agent_id', 'message_type', 'payload', 'metadata']) {
      expect(OsnapMessage.safeParse(without(key)).success, key).toBe(false);
    }
    expect(OsnapMessage.safeParse({ ...requestExample, metadata: { priority: 'low' } }).success).toBe(false);
    expect(OsnapMessage.safeParse({ ...requestExample, payload: { request_id: 'r' } }).success).toBe(false);
    expect(OsnapMessage.safeParse({ ...responseExample, message_type: 'request' }).success).toBe(false);
    expect(OsnapMessage.safeParse({ ...toolsResponseExample, payload: { information_tools: [] } }).success).toBe(false);
    expect(
      OsnapMessage.safeParse({
        ...responseExample,
        message_type: 'agents_response',
        payload: [{ agent_id: 'a', tools: {} }],
      }).success,
    ).toBe(false);
  });

  it('keeps unknown fields, and checks metadata it knows', () => {
    const extended = { ...requestExample, trace_id: 't-1', metadata: { ...requestExample.metadata, hop: 2 } };
    expect(OsnapMessage.parse(extended)).toEqual(extended);
    expect(
      OsnapMessage.safeParse({ ...requestExample, metadata: { timestamp: '2023-04-29T10:30:00Z', priority: 'urgent' } })
        .success,
    ).toBe(false);
    expect(OsnapMessage.safeParse({ ...requestExample, metadata: { timestamp: '2023-04-29 10:30' } }).success).toBe(
      false,
    );
    expect(OsnapMessage.safeParse({ ...requestExample, sender_agent_id: 'agent 123' }).success).toBe(false);
  });
});
