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
});
