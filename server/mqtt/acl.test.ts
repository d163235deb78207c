import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_GRANT_SECONDS, TEXT_LIMITS } from '@shared/contract/text-limits';
import { mayPublish, maySubscribe, type BrokerIdentity } from './acl';
import { filterCovers, isValidFilter, topicMatches } from './topic-filter';

const agent: BrokerIdentity = { kind: 'agent', agentId: 'agent.researcher' };
const facilitator: BrokerIdentity = { kind: 'operator', did: 'did:key:z6MkF', role: 'facilitator' };
const observer: BrokerIdentity = { kind: 'operator', did: 'did:key:z6MkO', role: 'observer' };
const env = (type: string, fromId = 'did:key:z6MkF', fromKind = 'user', roomId = 'r1') => ({
  type,
  roomId,
  fromKind,
  fromId,
});

describe('topic filters', () => {
  it.each([
    ['rooms/+/public', 'rooms/r1/public', true],
    ['rooms/#', 'rooms/r1/agents/a/inbox', true],
    ['rooms/+/public', 'rooms/r1/control', false],
    ['#', '$SYS/broker/clients', false],
    ['rooms/+', 'rooms/r1/public', false],
    ['rooms/r1/public/#', 'rooms/r1/public', true],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });

  it.each([
    ['a/#/b', false],
    ['a/b#', false],
    ['a/+b', false],
    ['', false],
    ['a/+/#', true],
  ])('validity of %j is %s', (filter, expected) => expect(isValidFilter(filter)).toBe(expected));

  it('covers only what the allowed filter matches, for random topics', () => {
    const level = fc.constantFrom('rooms', 'r1', 'r2', 'agents', 'a', 'b', 'inbox', 'public', '+');
    const filterArb = fc
      .tuple(fc.array(level, { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([ls, hash]) => [...ls, ...(hash ? ['#'] : [])].join('/'));
    const topicArb = fc
      .array(fc.constantFrom('rooms', 'r1', 'r2', 'agents', 'a', 'b', 'inbox', 'public'), {
        minLength: 1,
        maxLength: 6,
      })
      .map((ls) => ls.join('/'));
    fc.assert(
      fc.property(filterArb, filterArb, fc.array(topicArb, { maxLength: 30 }), (allowed, requested, topics) => {
        if (!filterCovers(allowed, requested)) return;
        for (const topic of topics) if (topicMatches(requested, topic)) expect(topicMatches(allowed, topic)).toBe(true);
      }),
      { seed: 1883, numRuns: 2000 },
    );
  });
});

describe('§8 ACL: agents', () => {
  it.each([
    ['rooms/+/public', true],
    ['rooms/r1/public', true],
    ['rooms/+/control', true],
    ['rooms/r1/agents/agent.researcher/inbox', true],
    ['rooms/+/agents/agent.researcher/inbox', true],
    ['rooms/r1/agents/agent.analyst/inbox', false],
    ['rooms/+/agents/+/inbox', false],
    ['rooms/r1/agents/agent.researcher/work', false],
    ['rooms/r1/agents/agent.analyst/work', false],
    ['rooms/r1/public_candidates', false],
    ['rooms/#', false],
    ['#', false],
    ['rooms/+/+', false],
    ['$share/g/rooms/+/public', false],
    ['$SYS/#', false],
  ])('subscribe %s → %s', (filter, ok) => expect(maySubscribe(agent, filter).ok).toBe(ok));

  it.each([
    ['rooms/r1/public_candidates', true],
    ['rooms/r1/agents/agent.researcher/heartbeat', true],
    ['rooms/r1/agents/agent.researcher/work', true],
    ['rooms/r1/public', false],
    ['rooms/r1/control', false],
    ['rooms/r1/agents/agent.researcher/inbox', false],
    ['rooms/r1/agents/agent.analyst/heartbeat', false],
    ['rooms/r1/agents/agent.analyst/work', false],
    ['rooms/+/public_candidates', false],
    ['elsewhere/topic', false],
  ])('publish %s → %s', (topic, ok) => expect(mayPublish(agent, { topic, retain: false }).ok).toBe(ok));

  it('refuses retained publishes even where publishing is allowed', () => {
    expect(mayPublish(agent, { topic: 'rooms/r1/public_candidates', retain: true })).toEqual({
      ok: false,
      reason: 'retain_not_allowed',
    });
  });
});

describe('§8 ACL: operators', () => {
  it('lets both roles read every room topic and nothing else', () => {
    for (const who of [facilitator, observer]) {
      expect(maySubscribe(who, 'rooms/#').ok).toBe(true);
      expect(maySubscribe(who, 'rooms/r1/agents/a/work').ok).toBe(true);
      expect(maySubscribe(who, '#').ok).toBe(false);
      expect(maySubscribe(who, '$SYS/#').ok).toBe(false);
    }
  });

  it.each([
    ['rooms/r1/public', env('say'), true],
    ['rooms/r1/agents/a/inbox', env('task'), true],
    ['rooms/r1/control', env('mic_grant'), true],
    ['rooms/r1/control', env('mic_revoke'), true],
    ['rooms/r1/public', env('result'), false],
    ['rooms/r1/control', env('reject'), false],
    ['rooms/r1/public_candidates', env('result'), false],
    ['rooms/r1/agents/a/heartbeat', env('heartbeat'), false],
    ['rooms/r1/public', env('say', 'did:key:z6MkOther'), false],
    ['rooms/r1/public', env('say', 'did:key:z6MkF', 'agent'), false],
    ['rooms/r1/public', env('say', 'did:key:z6MkF', 'user', 'r2'), false],
    ['rooms/r1/control', env('mic_grant', 'did:key:z6MkF', 'user', 'r2'), false],
  ])('facilitator publish %s %j → %s', (topic, envelope, ok) => {
    expect(mayPublish(facilitator, { topic, retain: false, envelope }).ok).toBe(ok);
  });

  it('refuses a facilitator publish whose payload is not an envelope', () => {
    expect(mayPublish(facilitator, { topic: 'rooms/r1/public', retain: false })).toEqual({
      ok: false,
      reason: 'invalid_envelope',
    });
  });

  it('holds operators to the text limits and the longest grant the console counts against', () => {
    const at = (extra: Record<string, number>, type = 'say') => ({ ...env(type), ...extra });
    const say = (n: number) =>
      mayPublish(facilitator, { topic: 'rooms/r1/public', retain: false, envelope: at({ textChars: n }) });
    expect(say(TEXT_LIMITS.message).ok).toBe(true);
    expect(say(TEXT_LIMITS.message + 1)).toEqual({ ok: false, reason: 'text_too_long' });
    const grant = (s: number) =>
      mayPublish(facilitator, {
        topic: 'rooms/r1/control',
        retain: false,
        envelope: at({ grantSeconds: s }, 'mic_grant'),
      });
    expect(grant(MAX_GRANT_SECONDS).ok).toBe(true);
    expect(grant(190 * 365 * 86_400)).toEqual({ ok: false, reason: 'grant_too_long' });
  });

  it('keeps observers read-only', () => {
    expect(
      mayPublish(observer, { topic: 'rooms/r1/public', retain: false, envelope: env('say', 'did:key:z6MkO') }),
    ).toEqual({ ok: false, reason: 'observer_read_only' });
  });
});
