import { describe, expect, it } from 'vitest';
import {
  ArtifactLinkContent,
  FindingContent,
  HeartbeatPayload,
  MAX_GRANT_MESSAGES,
  MESSAGE_TYPES,
  MicGrantPayload,
  MicRevokePayload,
  RejectPayload,
  RESULT_CONTENT,
  ResultPayload,
  RiskContent,
  SayPayload,
  TaskPayload,
} from './payloads';
import { CONTENT_EXAMPLES } from './test-support/fixtures';

const grant = {
  task_id: 'task_42',
  agent_id: 'agent.researcher',
  max_messages: 6,
  allowed_message_types: [...MESSAGE_TYPES],
  expires_at: 1734531200,
};

describe('result payloads (AOR §5.6, §6)', () => {
  it.each(MESSAGE_TYPES)('accepts the spec example for %s', (messageType) => {
    const payload = { task_id: 'task_42', message_type: messageType, content: CONTENT_EXAMPLES[messageType] };
    expect(ResultPayload.parse(payload)).toEqual(payload);
    expect(RESULT_CONTENT[messageType].safeParse(CONTENT_EXAMPLES[messageType]).success).toBe(true);
  });

  it.each([
    ['ack', {}],
    ['ack', { text: '   ' }],
    ['clarifying_question', { text: 'not a question field' }],
    ['progress', { text: 7 }],
    ['finding', { bullets: [] }],
    ['finding', { bullets: 'one' }],
    ['risk', { severity: 'high' }],
    ['result', { bullets: ['x'] }],
    ['artifact_link', { label: 'no url' }],
  ])('refuses %s content %j', (messageType, content) => {
    expect(ResultPayload.safeParse({ task_id: 'task_42', message_type: messageType, content }).success).toBe(false);
  });

  it('checks each content against its own message_type', () => {
    // A finding's content is not a valid ack.
    expect(
      ResultPayload.safeParse({ task_id: 't', message_type: 'ack', content: CONTENT_EXAMPLES.finding }).success,
    ).toBe(false);
  });

  it('refuses an unknown message_type and a missing or bad task_id', () => {
    expect(ResultPayload.safeParse({ task_id: 't', message_type: 'poem', content: { text: 'x' } }).success).toBe(false);
    expect(ResultPayload.safeParse({ message_type: 'ack', content: { text: 'x' } }).success).toBe(false);
    expect(ResultPayload.safeParse({ task_id: 'a/b', message_type: 'ack', content: { text: 'x' } }).success).toBe(
      false,
    );
  });

  it('keeps unknown fields in payload and content (decision "strictness")', () => {
    const payload = { task_id: 't', message_type: 'ack', content: { text: 'x', lang: 'en' }, trace: 'abc' };
    expect(ResultPayload.parse(payload)).toEqual(payload);
  });

  it('risk severity is one of low, medium, high, critical and optional', () => {
    for (const severity of ['low', 'medium', 'high', 'critical'])
      expect(RiskContent.safeParse({ text: 'r', severity }).success).toBe(true);
    expect(RiskContent.safeParse({ text: 'r' }).success).toBe(true);
    expect(RiskContent.safeParse({ text: 'r', severity: 'severe' }).success).toBe(false);
  });

  it('artifact_link takes only http(s) URLs, label optional (decision "artifact links")', () => {
    expect(ArtifactLinkContent.safeParse({ url: 'http://example.com/a' }).success).toBe(true);
    expect(ArtifactLinkContent.safeParse({ url: 'javascript:alert(1)', label: 'x' }).success).toBe(false);
    expect(ArtifactLinkContent.safeParse({ url: 'file:///etc/passwd' }).success).toBe(false);
    expect(ArtifactLinkContent.safeParse({ url: 'not a url' }).success).toBe(false);
  });

  it('finding bullets must be non-blank strings', () => {
    expect(FindingContent.safeParse({ bullets: ['a', ''] }).success).toBe(false);
  });
});

describe('envelope payloads (AOR §5)', () => {
  it('say needs non-blank text', () => {
    expect(SayPayload.safeParse({ text: 'Can someone review this?' }).success).toBe(true);
    expect(SayPayload.safeParse({ text: '' }).success).toBe(false);
  });

  it('task needs task_id and goal; format and deadline are optional (decision "payload fields")', () => {
    expect(
      TaskPayload.safeParse({
        task_id: 'task_42',
        goal: 'Find 3 options with pros/cons',
        format: 'bullets',
        deadline: 1734531000,
      }).success,
    ).toBe(true);
    expect(TaskPayload.safeParse({ task_id: 'task_42', goal: 'Find options' }).success).toBe(true);
    expect(TaskPayload.safeParse({ task_id: 'task_42' }).success).toBe(false);
    expect(TaskPayload.safeParse({ task_id: 'task_42', goal: 'g', deadline: 1734531000000 }).success).toBe(false);
  });

  it('mic_grant: the spec example parses', () => {
    expect(MicGrantPayload.parse(grant)).toEqual(grant);
  });

  it.each([
    ['zero messages', { max_messages: 0 }],
    ['fractional messages', { max_messages: 1.5 }],
    ['too many messages', { max_messages: MAX_GRANT_MESSAGES + 1 }],
    ['no allowed types', { allowed_message_types: [] }],
    ['unknown allowed type', { allowed_message_types: ['ack', 'poem'] }],
    ['expires_at in ms', { expires_at: 1734531200000 }],
    ['bad agent_id', { agent_id: 'agent/x' }],
    ['missing task_id', { task_id: undefined }],
  ])('mic_grant refuses %s (decision "grant bounds")', (_why, change) => {
    expect(MicGrantPayload.safeParse({ ...grant, ...change }).success).toBe(false);
  });

  it('mic_grant allows the full budget bound', () => {
    expect(MicGrantPayload.safeParse({ ...grant, max_messages: MAX_GRANT_MESSAGES }).success).toBe(true);
  });

  it('mic_revoke: reason optional, non-empty when present', () => {
    expect(
      MicRevokePayload.safeParse({ task_id: 'task_42', agent_id: 'agent.researcher', reason: 'task_cancelled' })
        .success,
    ).toBe(true);
    expect(MicRevokePayload.safeParse({ task_id: 'task_42', agent_id: 'agent.researcher' }).success).toBe(true);
    expect(MicRevokePayload.safeParse({ task_id: 'task_42', agent_id: 'agent.researcher', reason: '' }).success).toBe(
      false,
    );
    expect(MicRevokePayload.safeParse({ task_id: 'task_42' }).success).toBe(false);
  });

  it('heartbeat: ts required, description optional', () => {
    expect(HeartbeatPayload.safeParse({ ts: 1734530000, description: 'Math Agent' }).success).toBe(true);
    expect(HeartbeatPayload.safeParse({ ts: 1734530000 }).success).toBe(true);
    expect(HeartbeatPayload.safeParse({ description: 'Math Agent' }).success).toBe(false);
  });

  it('reject: reason required; message_id, task_id and detail optional (decision "reject payload")', () => {
    expect(
      RejectPayload.safeParse({ message_id: 'msg_123', task_id: 'task_42', reason: 'mic_grant_expired' }).success,
    ).toBe(true);
    expect(RejectPayload.safeParse({ reason: 'invalid_envelope', detail: 'Not valid JSON' }).success).toBe(true);
    expect(RejectPayload.safeParse({ reason: 'some_other_implementations_reason' }).success).toBe(true);
    expect(RejectPayload.safeParse({ message_id: 'msg_123' }).success).toBe(false);
    expect(RejectPayload.safeParse({ reason: 'x', detail: 'd'.repeat(1025) }).success).toBe(false);
  });
});
