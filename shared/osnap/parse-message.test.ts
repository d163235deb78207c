import { describe, expect, it } from 'vitest';
import { canonicalMessageType, parseOsnapMessage } from './parse-message';
import { requestExample, taskExecutionExample, taskRequestExample } from './test-support/examples';

describe('parseOsnapMessage', () => {
  it('returns a valid message as parsed', () => {
    expect(parseOsnapMessage(requestExample)).toEqual({ ok: true, value: requestExample });
  });

  it('reads the §3.1.2 example`s task_request as task_execution, and says so in message_type', () => {
    const result = parseOsnapMessage(taskRequestExample);
    expect(result).toEqual({ ok: true, value: { ...taskRequestExample, message_type: 'task_execution' } });
    expect(taskRequestExample.message_type).toBe('task_request'); // the input is not modified
  });

  it('holds an alias to the schema of the type it stands for', () => {
    const result = parseOsnapMessage({ ...taskRequestExample, payload: { task_id: 't' } });
    expect(result.ok || result.error.code).toBe('OSNAP_INVALID_MESSAGE');
  });

  it('refuses unknown message types with their own code and the list of known ones', () => {
    const result = parseOsnapMessage({ ...taskExecutionExample, message_type: 'task_cancel' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('OSNAP_UNKNOWN_MESSAGE_TYPE');
      expect(result.error.details).toMatchObject({ received: 'task_cancel' });
    }
    expect(parseOsnapMessage({ ...taskExecutionExample, message_type: 'toString' }).ok).toBe(false);
    expect(parseOsnapMessage({ ...taskExecutionExample, message_type: '__proto__' }).ok).toBe(false);
  });

  it('refuses non-objects and invalid messages with OSNAP_INVALID_MESSAGE and the issues', () => {
    for (const raw of [null, [], 'request', 7]) {
      const result = parseOsnapMessage(raw);
      expect(result.ok || result.error.code).toBe('OSNAP_INVALID_MESSAGE');
    }
    const result = parseOsnapMessage({ ...requestExample, message_type: 42 });
    expect(result.ok || result.error.code).toBe('OSNAP_INVALID_MESSAGE');
    const missing = parseOsnapMessage({ ...requestExample, receiver_agent_id: undefined });
    expect(!missing.ok && missing.error.details?.issues).toEqual([
      expect.objectContaining({ path: 'receiver_agent_id' }),
    ]);
  });
});

describe('canonicalMessageType', () => {
  it('maps types to themselves, aliases to their type, and anything else to undefined', () => {
    expect(canonicalMessageType('status_update')).toBe('status_update');
    expect(canonicalMessageType('task_request')).toBe('task_execution');
    expect(canonicalMessageType('constructor')).toBeUndefined();
  });
});
