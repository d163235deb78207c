import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, '/srv/sb');
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8787, mqttPort: undefined, dataDir: '/srv/sb/data', demo: true, demoPace: 'calm' });
  });

  it('reads the environment', () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '0', MQTT_PORT: '1884', DATA_DIR: '/tmp/x', DEMO: '0' }, '/srv/sb');
    expect(config).toMatchObject({ host: '0.0.0.0', port: 0, mqttPort: 1884, dataDir: '/tmp/x', demo: false });
  });

  it.each(['abc', '-1', '70000', '1.5'])('refuses PORT=%s and MQTT_PORT=%s with a message naming the variable', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: value })).toThrow(/^PORT must be/);
    expect(() => loadConfig({ MQTT_PORT: value })).toThrow(/^MQTT_PORT must be/);
  });

  it('reads DEMO_PACE, and refuses an unknown pace with a message naming the variable', () => {
    expect(loadConfig({ DEMO_PACE: 'fast' }).demoPace).toBe('fast');
    expect(loadConfig({ DEMO_PACE: 'calm' }).demoPace).toBe('calm');
    expect(() => loadConfig({ DEMO_PACE: 'warp' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEMO_PACE: 'warp' })).toThrow('DEMO_PACE must be calm or fast, got "warp".');
    expect(() => loadConfig({ DEMO_PACE: 'toString' })).toThrow(/^DEMO_PACE must be/);
  });

  it('reads the rate limits and the long-poll cap, with defaults the demo and the soak stay under', () => {
    expect(loadConfig({}).limits).toEqual({
      authPerAddress: { capacity: 30, refillPerSecond: 0.5 },
      authPerDid: { capacity: 10, refillPerSecond: 10 / 60 },
      relayPerAddress: { capacity: 6000, refillPerSecond: 100 },
      relayPerDid: { capacity: 1800, refillPerSecond: 30 },
      longPollsPerAddress: 64,
    });
    const set = loadConfig({ RATE_LIMIT_AUTH_ADDRESS: '5/s', RATE_LIMIT_AUTH_DID: '7/h', RATE_LIMIT_RELAY_ADDRESS: '120/min', RATE_LIMIT_RELAY_DID: '60/min', LONG_POLLS_PER_ADDRESS: '8' }).limits;
    expect(set).toEqual({
      authPerAddress: { capacity: 5, refillPerSecond: 5 },
      authPerDid: { capacity: 7, refillPerSecond: 7 / 3600 },
      relayPerAddress: { capacity: 120, refillPerSecond: 2 },
      relayPerDid: { capacity: 60, refillPerSecond: 1 },
      longPollsPerAddress: 8,
    });
  });

  it.each(['30', '0/min', '30/day', 'x/min', '-1/s'])('refuses RATE_LIMIT_RELAY_DID=%s with a message naming the variable', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_RELAY_DID: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_RELAY_DID: value })).toThrow(/^RATE_LIMIT_RELAY_DID must be a count per window like 30\/min/);
  });

  it.each(['0', 'many', '1.5'])('refuses LONG_POLLS_PER_ADDRESS=%s', (value) => {
    expect(() => loadConfig({ LONG_POLLS_PER_ADDRESS: value })).toThrow(/^LONG_POLLS_PER_ADDRESS must be/);
  });
});
