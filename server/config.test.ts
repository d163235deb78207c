import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { MAX_PACKET_BYTES } from './mqtt/broker-listeners';
import { DEFAULT_PUBLISH_QUOTAS, MIN_BYTE_QUOTA } from './mqtt/publish-quotas';
import { MIN_SEND_BUFFER_BYTES } from './mqtt/send-limits';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, '/srv/sb');
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      mqttPort: undefined,
      dataDir: '/srv/sb/data',
      demo: true,
      demoPace: 'calm',
    });
  });

  it('reads the environment', () => {
    const config = loadConfig(
      { HOST: '0.0.0.0', PORT: '0', MQTT_PORT: '1884', DATA_DIR: '/tmp/x', DEMO: '0' },
      '/srv/sb',
    );
    expect(config).toMatchObject({ host: '0.0.0.0', port: 0, mqttPort: 1884, dataDir: '/tmp/x', demo: false });
  });

  it.each(['abc', '-1', '70000', '1.5'])(
    'refuses PORT=%s and MQTT_PORT=%s with a message naming the variable',
    (value) => {
      expect(() => loadConfig({ PORT: value })).toThrow(ConfigError);
      expect(() => loadConfig({ PORT: value })).toThrow(/^PORT must be/);
      expect(() => loadConfig({ MQTT_PORT: value })).toThrow(/^MQTT_PORT must be/);
    },
  );

  it('takes SWITCHBOARD_TEST_CLOCK only in a test run, and refuses a bad one with a line naming it', () => {
    const pinned = { SWITCHBOARD_TEST_CLOCK: `2027-03-28T00:55:00Z@${Date.parse('2026-11-28T08:00:00Z')}` };
    expect(loadConfig({ ...pinned, NODE_ENV: 'test' }).testClockShiftMs).toBe(
      Date.parse('2027-03-28T00:55:00Z') - Date.parse('2026-11-28T08:00:00Z'),
    );
    expect(loadConfig({ NODE_ENV: 'test' }).testClockShiftMs).toBeUndefined();
    for (const NODE_ENV of [undefined, 'production', 'development'])
      expect(() => loadConfig({ ...pinned, ...(NODE_ENV ? { NODE_ENV } : {}) })).toThrow(
        new ConfigError('SWITCHBOARD_TEST_CLOCK is for test runs only: it is refused unless NODE_ENV=test.'),
      );
    expect(() => loadConfig({ SWITCHBOARD_TEST_CLOCK: 'next Saturday', NODE_ENV: 'test' })).toThrow(ConfigError);
  });

  it('reads LOG_LEVEL: info by default, any pino level or silent, and a one-line error otherwise', () => {
    expect(loadConfig({}, '/srv/sb').logLevel).toBe('info');
    for (const level of ['trace', 'debug', 'warn', 'error', 'fatal', 'silent'])
      expect(loadConfig({ LOG_LEVEL: level }, '/srv/sb').logLevel).toBe(level);
    for (const bad of ['verbose', 'INFO', '30'])
      expect(() => loadConfig({ LOG_LEVEL: bad }, '/srv/sb')).toThrow(
        new ConfigError(`LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "${bad}".`),
      );
  });

  it('reads TRUST_PROXY as addresses and CIDRs, and refuses anything else in one line naming it', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toHaveLength(2);
    for (const bad of ['proxy.internal', '10.0.0.0/40', 'true']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^TRUST_PROXY must be IP addresses or CIDR ranges[^\n]*$/);
    }
  });

  it('reads DEMO_PACE, and refuses an unknown pace with a message naming the variable', () => {
    expect(loadConfig({ DEMO_PACE: 'fast' }).demoPace).toBe('fast');
    expect(loadConfig({ DEMO_PACE: 'calm' }).demoPace).toBe('calm');
    expect(() => loadConfig({ DEMO_PACE: 'warp' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEMO_PACE: 'warp' })).toThrow('DEMO_PACE must be calm or fast, got "warp".');
    expect(() => loadConfig({ DEMO_PACE: 'toString' })).toThrow(/^DEMO_PACE must be/);
  });

  it('reads the rate limits and the long-poll cap, with defaults the demo and the soak stay under', () => {
    expect(loadConfig({}).limits).toMatchObject({
      authPerAddress: { capacity: 30, refillPerSecond: 0.5 },
      authChallengesPerAddress: { capacity: 600, refillPerSecond: 10 },
      authPerDid: { capacity: 10, refillPerSecond: 10 / 60 },
      relayPerAddress: { capacity: 6000, refillPerSecond: 100 },
      relayPerDid: { capacity: 1800, refillPerSecond: 30 },
      directoryPerAddress: { capacity: 120, refillPerSecond: 2 },
      directoryPerDid: { capacity: 20, refillPerSecond: 1 / 3 },
      longPollsPerAddress: 64,
    });
    const set = loadConfig({
      RATE_LIMIT_AUTH_ADDRESS: '5/s',
      RATE_LIMIT_AUTH_CHALLENGE: '50/min',
      RATE_LIMIT_AUTH_DID: '7/h',
      RATE_LIMIT_RELAY_ADDRESS: '120/min',
      RATE_LIMIT_RELAY_DID: '60/min',
      RATE_LIMIT_DIRECTORY_ADDRESS: '10/s',
      RATE_LIMIT_DIRECTORY_DID: '3/h',
      LONG_POLLS_PER_ADDRESS: '8',
    }).limits;
    expect(set).toMatchObject({
      authPerAddress: { capacity: 5, refillPerSecond: 5 },
      authChallengesPerAddress: { capacity: 50, refillPerSecond: 50 / 60 },
      authPerDid: { capacity: 7, refillPerSecond: 7 / 3600 },
      relayPerAddress: { capacity: 120, refillPerSecond: 2 },
      relayPerDid: { capacity: 60, refillPerSecond: 1 },
      directoryPerAddress: { capacity: 10, refillPerSecond: 10 },
      directoryPerDid: { capacity: 3, refillPerSecond: 3 / 3600 },
      longPollsPerAddress: 8,
    });
  });

  it('reads the burn and negotiation-open budgets', () => {
    expect(loadConfig({}).limits).toMatchObject({
      burnsPerAddress: { capacity: 300, refillPerSecond: 5 },
      burnsPerDid: { capacity: 60, refillPerSecond: 1 },
      negotiationOpensPerAddress: { capacity: 120, refillPerSecond: 2 },
      negotiationOpensPerDid: { capacity: 30, refillPerSecond: 0.5 },
      operatorWritesPerAddress: { capacity: 600, refillPerSecond: 10 },
      operatorWritesPerDid: { capacity: 120, refillPerSecond: 2 },
    });
    expect(loadConfig({ RATE_LIMIT_OPERATOR_DID: '4/min' }).limits?.operatorWritesPerDid).toEqual({
      capacity: 4,
      refillPerSecond: 4 / 60,
    });
    const set = loadConfig({
      RATE_LIMIT_BURN_ADDRESS: '10/s',
      RATE_LIMIT_BURN_DID: '2/min',
      RATE_LIMIT_NEGOTIATION_OPEN_ADDRESS: '60/h',
      RATE_LIMIT_NEGOTIATION_OPEN_DID: '1/s',
    }).limits;
    expect(set).toMatchObject({
      burnsPerAddress: { capacity: 10, refillPerSecond: 10 },
      burnsPerDid: { capacity: 2, refillPerSecond: 2 / 60 },
      negotiationOpensPerAddress: { capacity: 60, refillPerSecond: 60 / 3600 },
      negotiationOpensPerDid: { capacity: 1, refillPerSecond: 1 },
    });
    expect(() => loadConfig({ RATE_LIMIT_NEGOTIATION_OPEN_DID: '5' })).toThrow(
      /^RATE_LIMIT_NEGOTIATION_OPEN_DID must be a count per window like 30\/min/,
    );
    expect(() => loadConfig({ RATE_LIMIT_BURN_ADDRESS: '0/min' })).toThrow(/^RATE_LIMIT_BURN_ADDRESS must be/);
  });

  it.each(['30', '0/min', '30/day', 'x/min', '-1/s'])(
    'refuses RATE_LIMIT_RELAY_DID=%s with a message naming the variable',
    (value) => {
      expect(() => loadConfig({ RATE_LIMIT_RELAY_DID: value })).toThrow(ConfigError);
      expect(() => loadConfig({ RATE_LIMIT_RELAY_DID: value })).toThrow(
        /^RATE_LIMIT_RELAY_DID must be a count per window like 30\/min/,
      );
    },
  );

  it.each(['RATE_LIMIT_DIRECTORY_ADDRESS', 'RATE_LIMIT_DIRECTORY_DID'])(
    'refuses a bad %s with a message naming it',
    (name) => {
      expect(() => loadConfig({ [name]: '5/day' })).toThrow(
        new RegExp(`^${name} must be a count per window like 30/min`),
      );
    },
  );

  it.each(['0', 'many', '1.5'])('refuses LONG_POLLS_PER_ADDRESS=%s', (value) => {
    expect(() => loadConfig({ LONG_POLLS_PER_ADDRESS: value })).toThrow(/^LONG_POLLS_PER_ADDRESS must be/);
  });

  it('reads the MQTT send limits for clients that stop reading: 2 MiB and 10 s by default', () => {
    expect(loadConfig({}).mqttSendLimits).toEqual({ maxBufferedBytes: 2 * 1024 * 1024, drainTimeoutMs: 10_000 });
    expect(loadConfig({ MQTT_SEND_BUFFER_BYTES: '1048576', MQTT_DRAIN_TIMEOUT_MS: '2500' }).mqttSendLimits).toEqual({
      maxBufferedBytes: 1_048_576,
      drainTimeoutMs: 2500,
    });
  });

  it('keeps one largest packet within MQTT_SEND_BUFFER_BYTES', () => {
    expect(MIN_SEND_BUFFER_BYTES).toBeGreaterThanOrEqual(MAX_PACKET_BYTES);
    expect(() => loadConfig({ MQTT_SEND_BUFFER_BYTES: String(MAX_PACKET_BYTES - 1) })).toThrow(
      `MQTT_SEND_BUFFER_BYTES must be a whole number from ${MIN_SEND_BUFFER_BYTES} to 1073741824, got "${MAX_PACKET_BYTES - 1}".`,
    );
  });

  it('reads the per-agent MQTT publish quotas: 6000/min and 16MiB/min by default, off disables one', () => {
    expect(loadConfig({}).mqttPublishQuotas).toEqual(DEFAULT_PUBLISH_QUOTAS);
    expect(DEFAULT_PUBLISH_QUOTAS).toEqual({
      messages: { capacity: 6000, refillPerSecond: 100 },
      bytes: { capacity: 16 * 1024 * 1024, refillPerSecond: (16 * 1024 * 1024) / 60 },
    });
    expect(loadConfig({ MQTT_AGENT_MSGS: '600/min', MQTT_AGENT_BYTES: '2MiB/s' }).mqttPublishQuotas).toEqual({
      messages: { capacity: 600, refillPerSecond: 10 },
      bytes: { capacity: 2 * 1024 * 1024, refillPerSecond: 2 * 1024 * 1024 },
    });
    expect(loadConfig({ MQTT_AGENT_MSGS: 'off', MQTT_AGENT_BYTES: 'off' }).mqttPublishQuotas).toEqual({
      messages: undefined,
      bytes: undefined,
    });
  });

  it('keeps one largest packet within MQTT_AGENT_BYTES', () => {
    expect(MIN_BYTE_QUOTA).toBeGreaterThanOrEqual(MAX_PACKET_BYTES);
  });

  it.each([
    ['MQTT_AGENT_MSGS', '0/min'],
    ['MQTT_AGENT_MSGS', '10/day'],
    ['MQTT_AGENT_MSGS', 'lots'],
    ['MQTT_AGENT_BYTES', '16MB/min'],
    ['MQTT_AGENT_BYTES', '511KiB/s'], // below one largest packet: such a packet could never pass
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must `));
  });

  it.each(['0', '99', '10s', '1.5', '-1', '3600001'])(
    'refuses MQTT_DRAIN_TIMEOUT_MS=%s with a message naming the variable',
    (value) => {
      expect(() => loadConfig({ MQTT_DRAIN_TIMEOUT_MS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ MQTT_DRAIN_TIMEOUT_MS: value })).toThrow(
        /^MQTT_DRAIN_TIMEOUT_MS must be a whole number from 100 to 3600000/,
      );
    },
  );

  it('reads how often open MQTT connections are checked again: 2 s by default', () => {
    expect(loadConfig({}).mqttRevalidateMs).toBe(2_000);
    expect(loadConfig({ MQTT_REVALIDATE_MS: '250' }).mqttRevalidateMs).toBe(250);
  });

  it.each(['0', '9', '2s', '600001'])('refuses MQTT_REVALIDATE_MS=%s with a message naming the variable', (value) => {
    expect(() => loadConfig({ MQTT_REVALIDATE_MS: value })).toThrow(
      /^MQTT_REVALIDATE_MS must be a whole number from 10 to 600000/,
    );
  });
});
