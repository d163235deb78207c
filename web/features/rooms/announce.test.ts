import { describe, expect, it } from 'vitest';
import { announcementFor, type Arrival } from './announce';

const a = (from: string, type: string | null = 'progress', text = 'x'): Arrival => ({ from, type, text });

describe('announcementFor', () => {
  it('says nothing for nothing', () => {
    expect(announcementFor([])).toBe('');
  });

  it('reads one message out whole: sender, type and text, long text shortened', () => {
    expect(announcementFor([a('agent.x', 'ack', 'On it.')])).toBe('agent.x ack: On it.');
    expect(announcementFor([a('agent.x', null, 'hi')])).toBe('agent.x message: hi');
    const long = announcementFor([a('agent.x', 'progress', 'y'.repeat(500))]);
    expect(long).toBe(`agent.x progress: ${'y'.repeat(160)}…`);
  });

  it('counts a burst from one sender in one sentence', () => {
    expect(announcementFor([a('agent.x'), a('agent.x'), a('agent.x')])).toBe('3 new messages from agent.x');
  });

  it('counts a burst from several senders, most first, at most three named', () => {
    expect(announcementFor([a('agent.y'), a('agent.x'), a('agent.x')])).toBe(
      '3 new messages: 2 from agent.x, 1 from agent.y',
    );
    const many = [a('a'), a('a'), a('a'), a('b'), a('b'), a('c'), a('d'), a('e')];
    expect(announcementFor(many)).toBe('8 new messages: 3 from a, 2 from b, 1 from c, 2 from others');
  });

  it('says when a question waits among them', () => {
    expect(announcementFor([a('agent.x'), a('agent.x', 'clarifying_question')])).toBe(
      '2 new messages from agent.x, with a question from agent.x',
    );
  });
});
