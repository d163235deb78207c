import { describe, expect, it } from 'vitest';
import { bridgeNote } from './bridge-verdict';

describe('bridgeNote', () => {
  it('says nothing about an envelope the bridge trusted and applied', () => {
    expect(bridgeNote({ trusted: true, applied: true, reason: null })).toBeNull();
  });

  it('marks an untrusted envelope unverifiable, with its reason in words and as a code', () => {
    const note = bridgeNote({ trusted: false, applied: false, reason: 'signature_invalid' });
    expect(note?.kind).toBe('untrusted');
    expect(note?.words).toContain('Unverifiable');
    expect(note?.words).toContain('does not verify against sender.id (signature_invalid)');
    expect(bridgeNote({ trusted: false, applied: false, reason: 'something_new' })?.words).toContain(
      'refused (something_new)',
    );
  });

  it('tells a trusted envelope the thread machine refused from an untrusted one', () => {
    expect(bridgeNote({ trusted: true, applied: false, reason: 'thread_not_pending' })).toEqual({
      kind: 'not-applied',
      words: 'Not applied to the thread: thread_not_pending.',
    });
  });
});
