import { describe, expect, it } from 'vitest';
import { carrierPayload, isOacopCarrier, readCarrier } from './carrier';
import { propose, response } from './test-support/fixtures';

const carrier = (payload: unknown) => ({ type: 'REQUEST', payload });

describe('OACoP carried in an Agora REQUEST (decisions-oacop.md §A1)', () => {
  it('round-trips each kind: the six §7 messages, OACoPError and OACoPReceipt', () => {
    for (const message of [
      propose,
      response,
      {
        type: 'OACoPError' as const,
        threadId: propose.threadId,
        code: 'OACOP_STALE_REVISION' as const,
        message: 'stale',
        inReplyTo: 'msg_1',
        revision: 2,
      },
      { type: 'OACoPReceipt' as const, threadId: propose.threadId, revision: 2, status: 'CONFIRMED' as const },
    ]) {
      const payload = carrierPayload(message, 'req_1');
      expect(payload.intent).toBe(`oacop.${message.type}`);
      expect(isOacopCarrier(carrier(payload))).toBe(true);
      expect(readCarrier(carrier(payload))).toEqual({ ok: true, value: message });
    }
  });

  it('tells carriers from other envelopes', () => {
    expect(isOacopCarrier({ type: 'OFFER', payload: { intent: 'oacop.ProposeCollaboration' } })).toBe(false);
    expect(isOacopCarrier(carrier({ intent: 'translate.text' }))).toBe(false);
    expect(isOacopCarrier(carrier(null))).toBe(false);
  });

  it('refuses an intent that does not name the carried type, a malformed message, a malformed receipt', () => {
    const code = (payload: unknown) => {
      const read = readCarrier(carrier(payload));
      return read.ok ? 'ok' : read.error.code;
    };
    expect(code({ request_id: 'r', intent: 'oacop.ProposalResponse', params: propose })).toBe('OACOP_INVALID_MESSAGE');
    expect(code({ request_id: 'r', intent: 'oacop.ProposeCollaboration', params: { ...propose, revision: 0 } })).toBe(
      'OACOP_INVALID_MESSAGE',
    );
    expect(
      code({
        request_id: 'r',
        intent: 'oacop.OACoPReceipt',
        params: { type: 'OACoPReceipt', threadId: 'x', revision: 0, status: 'CONFIRMED' },
      }),
    ).toBe('OACOP_INVALID_MESSAGE');
    expect(
      code({
        request_id: 'r',
        intent: 'oacop.OACoPError',
        params: { type: 'OACoPError', threadId: 'x', code: 'NOPE', message: '', inReplyTo: 'm' },
      }),
    ).toBe('OACOP_INVALID_MESSAGE');
    expect(code({ request_id: 'r', intent: 'oacop.undefined' })).toBe('OACOP_INVALID_MESSAGE');
  });
});
