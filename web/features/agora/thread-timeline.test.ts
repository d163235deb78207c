import { describe, expect, it } from 'vitest';
import { agentA, client, signed } from '@shared/agora/test-support/fixtures';
import { threadTimeline } from './thread-timeline';

const stored = (seq: number, envelope: unknown) => ({
  seq,
  cursor: `cur_${seq}`,
  receivedAt: 1000 + seq,
  envelope: JSON.parse(JSON.stringify(envelope)) as unknown,
});

describe('thread timeline', () => {
  it('orders by the relay’s sequence and reads the fields a person needs from each type', () => {
    const entries = threadTimeline([
      stored(4, signed('RESULT', { from: agentA, to: client })),
      stored(1, signed('REQUEST', { from: client, to: agentA })),
      stored(2, signed('OFFER', { from: agentA, to: client, payload: { valid_until: '2026-02-02T15:35:00Z' } })),
      stored(3, signed('ACCEPT', { from: client, to: agentA, payload: { offer_id: 'msg_offer' } })),
    ]);
    expect(entries.map((e) => e.type)).toEqual(['REQUEST', 'OFFER', 'ACCEPT', 'RESULT']);
    const facts = (i: number) => Object.fromEntries(entries[i]!.facts.map((f) => [f.label, f.value]));
    expect(facts(0)).toMatchObject({ Intent: 'translation.en_zh', 'At most': '0.01 USD' });
    expect(facts(0).Params).toContain('"text": "Hello world"');
    expect(facts(1)).toMatchObject({
      Plan: 'Translate',
      Price: '0.005 USD',
      ETA: '2 s',
      'Valid until': expect.stringMatching(/^Mon 2 Feb( 2026)?, 15:35 UTC$/),
    });
    expect(facts(2)).toMatchObject({ Offer: 'msg_offer', Price: '0.005 USD' });
    expect(facts(3)).toMatchObject({ Status: 'success', Latency: '1200 ms' });
    expect(entries[3]!.envelope?.type).toBe('RESULT');
    expect(entries[1]!.senderId).toBe(agentA.did);
  });

  it('keeps agent-written markup as plain strings, and still shows what it can of a malformed envelope', () => {
    const [entry, broken] = threadTimeline([
      stored(1, signed('ERROR', { from: agentA, payload: { message: '<img src=x onerror=alert(1)>' } })),
      stored(2, { type: 'OFFER', payload: { plan: '<script>x</script>' } }),
    ]);
    expect(entry!.facts.find((f) => f.label === 'Message')?.value).toBe('<img src=x onerror=alert(1)>');
    expect(broken!.envelope).toBeNull();
    expect(broken!.facts).toEqual([{ label: 'Plan', value: '<script>x</script>' }]);
    expect(broken!.rawJson).toContain('"plan": "<script>x</script>"');
  });
});
