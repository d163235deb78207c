import { describe, expect, it } from 'vitest';
import { isCodedError } from '../errors';
import { AorId, assertValidId, isValidId, MAX_ID_LENGTH } from './ids';

describe('isValidId', () => {
  it.each([
    'msg_123',
    'room_1',
    'agent.researcher',
    'task_42',
    'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    'a',
    'ä-ü',
    'x'.repeat(MAX_ID_LENGTH),
    '😀'.repeat(MAX_ID_LENGTH),
  ])('accepts %s', (id) => {
    expect(isValidId(id)).toBe(true);
    expect(AorId.safeParse(id).success).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(MAX_ID_LENGTH + 1)],
    ['slash', 'a/b'],
    ['plus wildcard', 'a+b'],
    ['hash wildcard', '#'],
    ['space', 'a b'],
    ['tab', 'a\tb'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['zero-width space', 'agent\u200b'],
    ['bidi override', '\u202eagent'],
    ['lone surrogate', 'a\ud800'],
    ['non-breaking space', 'a\u00a0b'],
  ])('refuses %s', (_why, id) => {
    expect(isValidId(id)).toBe(false);
    expect(AorId.safeParse(id).success).toBe(false);
  });

  it.each([undefined, null, 42, {}, ['a']])('refuses non-string %s', (value) => {
    expect(isValidId(value)).toBe(false);
  });
});

describe('assertValidId', () => {
  it('passes a valid id', () => {
    expect(() => assertValidId('room_1', 'roomId')).not.toThrow();
  });

  it('throws CodedError invalid_id naming the field', () => {
    try {
      assertValidId('a/b', 'roomId');
      expect.unreachable();
    } catch (error) {
      expect(isCodedError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid_id', details: { name: 'roomId', value: 'a/b' } });
    }
  });

  it('reports the type of a non-string', () => {
    expect(() => assertValidId(7, 'agentId')).toThrow(
      expect.objectContaining({ details: { name: 'agentId', value: 'number' } }),
    );
  });
});
