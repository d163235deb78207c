import { describe, expect, it } from 'vitest';
import { MAX_ENVELOPE_BYTES } from './envelope';
import { MAX_HEARTBEAT_BYTES, MAX_WORK_BYTES, checkPayloadSize, payloadSizeLimit } from './payload-size';
import { heartbeatTopic, workTopic } from './topics';

describe("payload size caps on an agent's own topics (decision AOR 20)", () => {
  it('caps a heartbeat at 4 KiB and work at 64 KiB, exactly at the cap allowed and one byte more refused', () => {
    const heartbeat = heartbeatTopic('room_1', 'agent.a');
    const work = workTopic('room_1', 'agent.a');
    expect(MAX_HEARTBEAT_BYTES).toBe(4 * 1024);
    expect(MAX_WORK_BYTES).toBe(64 * 1024);
    expect(checkPayloadSize(heartbeat, MAX_HEARTBEAT_BYTES).ok).toBe(true);
    expect(checkPayloadSize(work, MAX_WORK_BYTES).ok).toBe(true);
    const over = checkPayloadSize(heartbeat, MAX_HEARTBEAT_BYTES + 1);
    expect(over).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'payload_too_large',
        details: { topicKind: 'heartbeat', limit: MAX_HEARTBEAT_BYTES, size: MAX_HEARTBEAT_BYTES + 1 },
      }),
    });
    expect(checkPayloadSize(work, MAX_WORK_BYTES + 1)).toMatchObject({
      ok: false,
      error: { code: 'payload_too_large', details: { topicKind: 'work' } },
    });
  });

  it("caps no other topic: a candidate over the envelope cap is the gateway's to reject in words (decision AOR 16)", () => {
    expect(payloadSizeLimit('rooms/room_1/public_candidates')).toBeUndefined();
    expect(payloadSizeLimit('rooms/room_1/agents/agent.a/inbox')).toBeUndefined();
    expect(checkPayloadSize('rooms/room_1/public_candidates', MAX_ENVELOPE_BYTES + 1).ok).toBe(true);
    expect(payloadSizeLimit('rooms/room_1/work')).toBeUndefined(); // not an agent topic
    expect(checkPayloadSize('elsewhere/heartbeat', 10 ** 9).ok).toBe(true);
  });

  it('a heartbeat as §5.5 shows it, with a long description, fits with room to spare', () => {
    const envelope = JSON.stringify({
      id: 'msg_0123456789abcdef0123456789abcdef',
      type: 'heartbeat',
      room_id: 'room_1',
      from: { kind: 'agent', id: 'agent.researcher' },
      ts: 1734530000,
      payload: { ts: 1734530000, description: 'Math Agent - performs mathematical calculations. '.repeat(20) },
    });
    expect(new TextEncoder().encode(envelope).length).toBeLessThan(MAX_HEARTBEAT_BYTES / 2);
  });
});
