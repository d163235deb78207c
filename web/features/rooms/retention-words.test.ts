import { describe, expect, it } from 'vitest';
import { readRetentionForm, retentionInWords } from './retention-words';

describe('history retention in words', () => {
  it('says what the sweep keeps', () => {
    expect(retentionInWords(undefined)).toBe('Keeps all history');
    expect(retentionInWords({ maxMessages: 10_000, maxAgeDays: null })).toBe('Keeps the newest 10,000 messages');
    expect(retentionInWords({ maxMessages: null, maxAgeDays: 1 })).toBe('Keeps the last 1 day of history');
    expect(retentionInWords({ maxMessages: 1, maxAgeDays: 30 })).toBe(
      'Keeps the newest 1 message, none older than 30 days',
    );
  });

  it('reads the form: empty is no limit, both empty keeps everything, anything else is refused in words', () => {
    expect(readRetentionForm('', '')).toEqual({ ok: true, retention: null });
    expect(readRetentionForm(' 500 ', '')).toEqual({ ok: true, retention: { maxMessages: 500, maxAgeDays: null } });
    expect(readRetentionForm('', '30')).toEqual({ ok: true, retention: { maxMessages: null, maxAgeDays: 30 } });
    expect(readRetentionForm('0', '1.5')).toEqual({
      ok: false,
      messagesError: expect.stringMatching(/^A whole number/),
      daysError: expect.stringMatching(/^A whole number/),
    });
    expect(readRetentionForm('10', '36501')).toMatchObject({ ok: false, daysError: expect.any(String) });
  });
});
