import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES } from './payloads';
import { aMessageType, messageTypeWords } from './message-type-words';

describe('message types in words', () => {
  it('names every AOR §6 type, none by its protocol word where that is not a word', () => {
    expect(MESSAGE_TYPES.map(messageTypeWords)).toEqual([
      'acknowledgement',
      'question',
      'progress note',
      'finding',
      'risk',
      'result',
      'artifact',
    ]);
  });

  it('calls anything else a message, and puts the right article before it', () => {
    expect(messageTypeWords('<script>')).toBe('message');
    expect(messageTypeWords(null)).toBe('message');
    expect(aMessageType('ack')).toBe('an acknowledgement');
    expect(aMessageType('finding')).toBe('a finding');
    expect(aMessageType('artifact_link')).toBe('an artifact');
  });
});
