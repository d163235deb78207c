// MQTT_URL and the broker credentials: one-line errors naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('external broker configuration', () => {
  it('is off without MQTT_URL', () => {
    expect(loadConfig({}).mqttExternal).toBeUndefined();
  });

  it('reads MQTT_URL, the server credential and the admin credential', () => {
    const env = {
      MQTT_URL: 'mqtt://broker:1883',
      MQTT_PASSWORD: 's',
      MQTT_ADMIN_USERNAME: 'admin',
      MQTT_ADMIN_PASSWORD: 'a',
      MQTT_CLIENT_ID: 'sb-1',
    };
    expect(loadConfig(env).mqttExternal).toEqual({
      url: 'mqtt://broker:1883',
      username: 'switchboard-server',
      password: 's',
      clientId: 'sb-1',
      adminUsername: 'admin',
      adminPassword: 'a',
    });
  });

  it.each([
    ['not a URL', 'broker:1883?'],
    ['http', 'http://broker:1883'],
    ['credentials in the URL', 'mqtt://u:p@broker:1883'],
  ])('refuses %s, naming MQTT_URL', (_label, url) => {
    expect(() => loadConfig({ MQTT_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ MQTT_URL: url })).toThrow(/MQTT_URL/);
  });
});
