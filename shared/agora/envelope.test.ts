import { describe, expect, it } from 'vitest';
import { AGORA_VERSION, Envelope, MESSAGE_TYPES, UnsignedEnvelope } from './envelope';
import { agentA, client } from './test-support/fixtures';

// The "Envelope Format" example, with real did:key identifiers in place of the elided ones.
const example = {
  version: '1.0',
  id: 'msg_01jqk7z8x8r9q3z5v2w4y6u8',
  ts: '2026-02-02T15:30:00Z',
  type: 'REQUEST',
  sender: { id: client.did, name: 'MyAgent', url: 'https://myagent.example.com' },
  recipient: { id: agentA.did },
  payload: {
    request_id: 'req_01jqk7z9',
    intent: 'translation.en_zh',
    params: { text: 'Hello world' },
    constraints: { max_cost_usd: 0.01 },
  },
  thread: { id: 'thread_01jqk7za' },
  meta: { ttl: 300, hop: 0 },
  sig: 'base64url_encoded_ed25519_signature',
};

const without = (key: string) => Object.fromEntries(Object.entries(example).filter(([k]) => k !== key));

describe('Envelope schema', () => {
  it('accepts the spec example and returns it unchanged', () => {
    expect(Envelope.parse(example)).toEqual(example);
    expect(AGORA_VERSION).toBe('1.0');
  });

  it('lists the five spec types plus CANCEL', () => {
    expect(MESSAGE_TYPES).toEqual(['REQUEST', 'OFFER', 'ACCEPT', 'RESULT', 'ERROR', 'CANCEL']);
    const cancel = { ...example, type: 'CANCEL', payload: { request_id: 'req_01jqk7z9' } };
    expect(Envelope.safeParse(cancel).success).toBe(true);
  });

  it('keeps unknown top-level and nested fields', () => {
    const extended = { ...example, x_trace: 'abc', sender: { ...example.sender, avatar: 'a.png' } };
    expect(Envelope.parse(extended)).toEqual(extended);
  });

  it('requires version, id, ts, type, sender, payload, thread and sig; recipient and meta are optional', () => {
    for (const key of ['version', 'id', 'ts', 'type', 'sender', 'payload', 'thread', 'sig']) {
      expect(Envelope.safeParse(without(key)).success, key).toBe(false);
    }
    expect(Envelope.safeParse(without('recipient')).success).toBe(true);
    expect(Envelope.safeParse(without('meta')).success).toBe(true);
    expect(UnsignedEnvelope.safeParse(without('sig')).success).toBe(true);
  });

  it('checks the payload against the schema of its type', () => {
    const offerAsRequest = { ...example, payload: { request_id: 'req_01jqk7z9', plan: 'x' } };
    expect(Envelope.safeParse(offerAsRequest).success).toBe(false);
    expect(
      Envelope.safeParse({ ...example, type: 'OFFER', payload: { request_id: 'req_01jqk7z9', plan: 'x' } }).success,
    ).toBe(true);
  });

  it('refuses unknown types, other versions, non-did:key parties and malformed fields', () => {
    const bad: Record<string, unknown>[] = [
      { ...example, type: 'task_request' },
      { ...example, version: '1.1' },
      { ...example, sender: { id: 'agent-123' } },
      { ...example, recipient: { id: 'did:web:example.com' } },
      { ...example, sender: { ...example.sender, url: 'javascript:alert(1)' } },
      { ...example, ts: '2026-02-02T15:30:00+08:00' },
      { ...example, thread: { id: '' } },
      { ...example, meta: { ttl: -1 } },
      { ...example, meta: { ttl: 1.5 } },
      { ...example, meta: { hop: -1 } },
      { ...example, sig: '' },
    ];
    for (const envelope of bad) expect(Envelope.safeParse(envelope).success, JSON.stringify(envelope)).toBe(false);
  });
});
