import { describe, expect, it } from 'vitest';
import { Envelope, ENVELOPE_TYPES, MAX_ENVELOPE_BYTES, parseEnvelope } from './envelope';
import { bytesOf, micGrant, micRevoke, resultEnvelope, T0 } from './test-support/fixtures';

const head = { id: 'msg_123', room_id: 'room_1', from: { kind: 'user', id: 'user.facilitator' }, ts: T0 };

// AOR §5 examples, one per envelope type.
const EXAMPLES = {
  say: { ...head, type: 'say', payload: { text: 'Can someone review this?' } },
  task: {
    ...head,
    type: 'task',
    payload: { task_id: 'task_42', goal: 'Find 3 options with pros/cons', format: 'bullets', deadline: 1734531000 },
  },
  mic_grant: micGrant(),
  mic_revoke: micRevoke({ reason: 'task_cancelled' }),
  heartbeat: {
    ...head,
    type: 'heartbeat',
    from: { kind: 'agent', id: 'agent.math' },
    payload: { ts: 1734530000, description: 'Math Agent - performs mathematical calculations' },
  },
  result: resultEnvelope(),
  reject: {
    ...head,
    type: 'reject',
    from: { kind: 'system', id: 'gateway' },
    payload: { message_id: 'msg_123', task_id: 'task_42', reason: 'mic_grant_expired' },
  },
} as const;

function problemOf(input: Uint8Array | string) {
  const result = parseEnvelope(input);
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('parsed');
  expect(result.error.code).toBe('invalid_envelope');
  return result.error;
}

describe('parseEnvelope', () => {
  it.each(ENVELOPE_TYPES)('parses the spec example of %s from bytes and from text', (type) => {
    const example = EXAMPLES[type];
    expect(parseEnvelope(bytesOf(example))).toEqual({ ok: true, value: example });
    expect(parseEnvelope(JSON.stringify(example))).toEqual({ ok: true, value: example });
    expect(Envelope.parse(example).type).toBe(type);
  });

  it('refuses an unknown type', () => {
    const error = problemOf(JSON.stringify({ ...EXAMPLES.say, type: 'shout' }));
    expect(error.details).toMatchObject({ problem: 'schema', messageId: 'msg_123' });
    expect(error.message).toContain('type');
  });

  it('refuses unknown top-level and from fields (decision "strictness")', () => {
    expect(problemOf(JSON.stringify({ ...EXAMPLES.say, roomId: 'room_1' })).details).toMatchObject({
      problem: 'schema',
    });
    expect(
      problemOf(JSON.stringify({ ...EXAMPLES.say, from: { kind: 'user', id: 'u', name: 'U' } })).details,
    ).toMatchObject({ problem: 'schema' });
  });

  it.each([
    ['missing id', { id: undefined }],
    ['empty id', { id: '' }],
    ['room id with wildcard', { room_id: 'room_+' }],
    ['unknown sender kind', { from: { kind: 'bot', id: 'b' } }],
    ['ts in milliseconds', { ts: T0 * 1000 }],
    ['fractional ts', { ts: T0 + 0.5 }],
    ['ts as a string', { ts: String(T0) }],
    ['missing payload', { payload: undefined }],
  ])('refuses %s (decision "ids" / "ts units")', (_why, change) => {
    expect(problemOf(JSON.stringify({ ...EXAMPLES.say, ...change })).details).toMatchObject({ problem: 'schema' });
  });

  it('names the path of what is wrong and carries usable ids for the reject', () => {
    const bad = {
      ...EXAMPLES.result,
      payload: { task_id: 'task_42', message_type: 'finding', content: { bullets: ['ok', ''] } },
    };
    const error = problemOf(bytesOf(bad));
    expect(error.details).toMatchObject({ problem: 'schema', messageId: 'msg_123', taskId: 'task_42' });
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: 'payload.content.bullets[1]' })]);
    expect(error.message).toContain('payload.content.bullets[1]');
  });

  it('leaves out ids that are not valid ids', () => {
    const error = problemOf(JSON.stringify({ id: 'a b', payload: { task_id: 7 } }));
    expect(error.details).not.toHaveProperty('messageId');
    expect(error.details).not.toHaveProperty('taskId');
    expect(problemOf('[]').details).toMatchObject({ problem: 'schema' });
    expect(problemOf('"text"').details?.issues).toEqual([expect.objectContaining({ path: '(envelope)' })]);
    expect(problemOf(JSON.stringify({ id: 'ok', payload: 'x' })).details).toMatchObject({ messageId: 'ok' });
  });

  it('refuses invalid JSON', () => {
    expect(problemOf('{"id":').details).toEqual({ problem: 'invalid_json' });
    expect(problemOf(new Uint8Array()).details).toEqual({ problem: 'invalid_json' });
  });

  it('refuses duplicate keys (decision "duplicate keys")', () => {
    const text = JSON.stringify(EXAMPLES.result).replace('"room_id":"room_1"', '"room_id":"room_2","room_id":"room_1"');
    expect(problemOf(text).details).toEqual({ problem: 'duplicate_key' });
  });

  it('refuses invalid UTF-8 bytes and lone surrogates in text', () => {
    const bytes = bytesOf(EXAMPLES.say);
    const broken = new Uint8Array([...bytes.slice(0, 10), 0xc3, 0x28, ...bytes.slice(10)]);
    expect(problemOf(broken).details).toEqual({ problem: 'invalid_utf8' });
    expect(problemOf(JSON.stringify(EXAMPLES.say).replace('review', 'rev\ud800iew')).details).toEqual({
      problem: 'invalid_utf8',
    });
  });

  it('accepts exactly MAX_ENVELOPE_BYTES and refuses one byte more (decision "size")', () => {
    const base = JSON.stringify(EXAMPLES.say);
    const pad = (n: number) => base.replace('"text":"', `"text":"${'x'.repeat(n)}`);
    const fits = pad(MAX_ENVELOPE_BYTES - base.length);
    expect(new TextEncoder().encode(fits).length).toBe(MAX_ENVELOPE_BYTES);
    expect(parseEnvelope(fits).ok).toBe(true);
    expect(parseEnvelope(new TextEncoder().encode(fits)).ok).toBe(true);
    const over = pad(MAX_ENVELOPE_BYTES - base.length + 1);
    expect(problemOf(over).details).toEqual({ problem: 'too_large' });
    expect(problemOf(new TextEncoder().encode(over)).details).toEqual({ problem: 'too_large' });
  });

  it('counts the size of text in UTF-8 bytes, not characters', () => {
    const base = JSON.stringify(EXAMPLES.say);
    const text = base.replace('"text":"', `"text":"${'é'.repeat(MAX_ENVELOPE_BYTES / 2)}`);
    expect(text.length).toBeLessThan(MAX_ENVELOPE_BYTES);
    expect(problemOf(text).details).toEqual({ problem: 'too_large' });
  });

  it('throws TypeError for input that is neither bytes nor text', () => {
    expect(() => parseEnvelope(42 as unknown as string)).toThrow(TypeError);
  });
});
