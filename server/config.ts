// Server configuration from the environment: the variables and defaults the README documents, which deployments rely on.
// A bad value is a one-line error naming the variable, never a stack trace.
import { resolve } from 'node:path';
import { TEST_CLOCK_VARIABLE, testClockShift } from './clock';
import { DEMO_PACES, type DemoPaceName } from './demo/demo-config';
import { parseTrustedProxies, type TrustedProxies } from './http/client-address';
import { hostName } from './http/host-check';
import { isLogLevel, LOG_LEVELS, type LogLevel } from './logging/logger';
import {
  DEFAULT_HTTP_LIMITS,
  DEFAULT_LISTEN_LIMITS,
  parseRate,
  type HttpLimits,
  type ListenLimits,
  type Rate,
} from './http/limits';
import { parseExternalServices, ServicesConfigError, type ConfiguredService } from './external/services-config';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhooks/webhook-sender';
import { parseWebhooks, WebhooksConfigError, type ConfiguredWebhook } from './webhooks/webhooks-config';
import { DEFAULT_REVALIDATE_MS } from './mqtt/revalidate';
import { DEFAULT_SEND_LIMITS, MIN_SEND_BUFFER_BYTES, type SendLimits } from './mqtt/send-limits';
import { DEFAULT_PUBLISH_QUOTAS, MIN_BYTE_QUOTA, parseByteRate, type PublishQuotaLimits } from './mqtt/publish-quotas';

export interface Config {
  readonly host: string;
  readonly port: number;
  /** The embedded broker's MQTT port for agents; undefined means 1883 when free, else any. */
  readonly mqttPort: number | undefined;
  readonly dataDir: string;
  /** PostgreSQL instead of SQLite under dataDir (openStore, store/pg/). */
  readonly databaseUrl: string | undefined;
  readonly demo: boolean;
  /** The demo's seed: the same seed plays the same demo (DEMO_SEED). */
  readonly demoSeed: number;
  /** How fast the demo runs (DEMO_PACE): `calm` for people, `fast` for journey tests. */
  readonly demoPace: DemoPaceName;
  readonly staticDir: string;
  /** An external broker instead of the embedded one (MQTT_URL); see the block at the end. */
  readonly mqttExternal?: ExternalMqttConfig | undefined;
  /** External relays and negotiation services to bridge (EXTERNAL_SERVICES). */
  readonly externalServices?: readonly ConfiguredService[];
  /** Host names besides localhost and IP literals that requests may name (ALLOWED_HOSTS; `*`: any). */
  readonly allowedHosts?: readonly string[];
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY: addresses or CIDRs); none when absent. */
  readonly trustProxy?: TrustedProxies;
  /** Services registered in the console may be on private addresses (ALLOW_PRIVATE_SERVICE_URLS=1). */
  readonly allowPrivateServiceUrls?: boolean;
  /** Rate limits and the long-poll cap (RATE_LIMIT_*, LONG_POLLS_PER_ADDRESS); defaults when absent. */
  readonly limits?: HttpLimits;
  /** The HTTP listener's request timeout and per-address connection cap (HTTP_REQUEST_TIMEOUT_MS, HTTP_CONNECTIONS_PER_ADDRESS). */
  readonly listen?: ListenLimits;
  /** What the server's MQTT broker holds for a client that stops reading (MQTT_SEND_BUFFER_BYTES, MQTT_DRAIN_TIMEOUT_MS). */
  readonly mqttSendLimits?: SendLimits;
  /** How often open MQTT connections' credentials and sessions are checked again, in ms (MQTT_REVALIDATE_MS). */
  readonly mqttRevalidateMs?: number;
  /** How much each agent may publish over MQTT (MQTT_AGENT_MSGS, MQTT_AGENT_BYTES); defaults when absent. */
  readonly mqttPublishQuotas?: PublishQuotaLimits;
  /** Outgoing webhooks (WEBHOOKS, ALLOW_PRIVATE_WEBHOOK_URLS, WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_DELAYS_MS). */
  readonly webhooks?: WebhooksConfig;
  /** GET /metrics is served to `Authorization: Bearer <this>` (METRICS_TOKEN); absent, it answers 404. */
  readonly metricsToken?: string | undefined;
  /** The least severe log lines written (LOG_LEVEL); absent: info (logging/logger.ts). */
  readonly logLevel?: LogLevel;
  /** How far the test clock moves time (SWITCHBOARD_TEST_CLOCK, tests only); absent: the system clock. */
  readonly testClockShiftMs?: number;
}

export interface WebhooksConfig {
  /** Endpoints defined outside the console (WEBHOOKS: a JSON array or a file holding one). */
  readonly endpoints: readonly ConfiguredWebhook[];
  /** Endpoints added in the console may be on private addresses (ALLOW_PRIVATE_WEBHOOK_URLS=1). */
  readonly allowPrivate: boolean;
  /** One send's bound: connect, headers and body (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The waits after each failed attempt; absent: the default schedule, about a day in all. */
  readonly retryDelaysMs?: readonly number[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function port<F extends number | undefined>(env: NodeJS.ProcessEnv, name: string, fallback: F): number | F {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}".`);
  }
  return value;
}

function seed(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 0xffffffff)
    throw new ConfigError(`${name} must be a whole number from 0 to 4294967295, got "${raw}".`);
  return Number(raw);
}

function demoPace(env: NodeJS.ProcessEnv): DemoPaceName {
  const raw = env.DEMO_PACE;
  if (raw === undefined || raw === '') return 'calm';
  if (!Object.hasOwn(DEMO_PACES, raw))
    throw new ConfigError(`DEMO_PACE must be ${Object.keys(DEMO_PACES).join(' or ')}, got "${raw}".`);
  return raw as DemoPaceName;
}

function rate(env: NodeJS.ProcessEnv, name: string, fallback: Rate, orElse = ''): Rate {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parsed = parseRate(raw);
  if (!parsed)
    throw new ConfigError(
      `${name} must be a count per window like 30/min (windows: s, min, h)${orElse}, got "${raw}".`,
    );
  return parsed;
}

function limits(env: NodeJS.ProcessEnv): HttpLimits {
  const d = DEFAULT_HTTP_LIMITS;
  const polls = env.LONG_POLLS_PER_ADDRESS;
  if (polls !== undefined && polls !== '' && (!/^\d{1,6}$/.test(polls) || Number(polls) < 1)) {
    throw new ConfigError(`LONG_POLLS_PER_ADDRESS must be a whole number from 1 to 999999, got "${polls}".`);
  }
  return {
    authPerAddress: rate(env, 'RATE_LIMIT_AUTH_ADDRESS', d.authPerAddress),
    authChallengesPerAddress: rate(env, 'RATE_LIMIT_AUTH_CHALLENGE', d.authChallengesPerAddress),
    authPerDid: rate(env, 'RATE_LIMIT_AUTH_DID', d.authPerDid),
    relayPerAddress: rate(env, 'RATE_LIMIT_RELAY_ADDRESS', d.relayPerAddress),
    relayPerDid: rate(env, 'RATE_LIMIT_RELAY_DID', d.relayPerDid),
    directoryPerAddress: rate(env, 'RATE_LIMIT_DIRECTORY_ADDRESS', d.directoryPerAddress),
    directoryPerDid: rate(env, 'RATE_LIMIT_DIRECTORY_DID', d.directoryPerDid),
    longPollsPerAddress: polls ? Number(polls) : d.longPollsPerAddress,
    burnsPerAddress: rate(env, 'RATE_LIMIT_BURN_ADDRESS', d.burnsPerAddress),
    burnsPerDid: rate(env, 'RATE_LIMIT_BURN_DID', d.burnsPerDid),
    negotiationOpensPerAddress: rate(env, 'RATE_LIMIT_NEGOTIATION_OPEN_ADDRESS', d.negotiationOpensPerAddress),
    negotiationOpensPerDid: rate(env, 'RATE_LIMIT_NEGOTIATION_OPEN_DID', d.negotiationOpensPerDid),
    operatorWritesPerAddress: rate(env, 'RATE_LIMIT_OPERATOR_ADDRESS', d.operatorWritesPerAddress),
    operatorWritesPerDid: rate(env, 'RATE_LIMIT_OPERATOR_DID', d.operatorWritesPerDid),
    webhooksPerAddress: rate(env, 'RATE_LIMIT_WEBHOOK_ADDRESS', d.webhooksPerAddress),
    webhooksPerDid: rate(env, 'RATE_LIMIT_WEBHOOK_DID', d.webhooksPerDid),
    importsPerAddress: rate(env, 'RATE_LIMIT_IMPORT_ADDRESS', d.importsPerAddress),
    importsPerDid: rate(env, 'RATE_LIMIT_IMPORT_DID', d.importsPerDid),
    signedReadsPerAddress: rate(env, 'RATE_LIMIT_SIGNED_READ_ADDRESS', d.signedReadsPerAddress),
    signedReadsPerDid: rate(env, 'RATE_LIMIT_SIGNED_READ_DID', d.signedReadsPerDid),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,12}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  return Number(raw);
}

function mqttSendLimits(env: NodeJS.ProcessEnv): SendLimits {
  return {
    maxBufferedBytes: wholeNumber(
      env,
      'MQTT_SEND_BUFFER_BYTES',
      DEFAULT_SEND_LIMITS.maxBufferedBytes,
      MIN_SEND_BUFFER_BYTES,
      1024 ** 3,
    ),
    drainTimeoutMs: wholeNumber(env, 'MQTT_DRAIN_TIMEOUT_MS', DEFAULT_SEND_LIMITS.drainTimeoutMs, 100, 3_600_000),
  };
}

function mqttPublishQuotas(env: NodeJS.ProcessEnv): PublishQuotaLimits {
  const d = DEFAULT_PUBLISH_QUOTAS;
  const messages = env.MQTT_AGENT_MSGS;
  const bytes = env.MQTT_AGENT_BYTES;
  const byteRate = bytes === undefined || bytes === '' || bytes === 'off' ? undefined : parseByteRate(bytes);
  if (byteRate && byteRate.capacity < MIN_BYTE_QUOTA)
    throw new ConfigError(
      `MQTT_AGENT_BYTES must allow at least 512KiB per window (one largest packet), got "${bytes}".`,
    );
  if (bytes && bytes !== 'off' && !byteRate)
    throw new ConfigError(
      `MQTT_AGENT_BYTES must be bytes per window like 16MiB/min (units: B, KiB, MiB, GiB; windows: s, min, h) or off, got "${bytes}".`,
    );
  return {
    messages: messages === 'off' ? undefined : rate(env, 'MQTT_AGENT_MSGS', d.messages!, ' or off'),
    bytes: bytes === undefined || bytes === '' ? d.bytes : byteRate,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: port(env, 'PORT', 8787),
    mqttPort: port(env, 'MQTT_PORT', undefined),
    dataDir: resolve(root, env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    demo: env.DEMO !== '0',
    demoSeed: seed(env, 'DEMO_SEED', 2026),
    demoPace: demoPace(env),
    staticDir: resolve(root, env.STATIC_DIR || './dist/web'),
    mqttExternal: externalMqtt(env),
    externalServices: externalServices(env),
    allowPrivateServiceUrls: flag(env, 'ALLOW_PRIVATE_SERVICE_URLS'),
    allowedHosts: allowedHosts(env),
    trustProxy: trustProxy(env),
    limits: limits(env),
    mqttSendLimits: mqttSendLimits(env),
    mqttRevalidateMs: wholeNumber(env, 'MQTT_REVALIDATE_MS', DEFAULT_REVALIDATE_MS, 10, 600_000),
    listen: {
      requestTimeoutMs: wholeNumber(
        env,
        'HTTP_REQUEST_TIMEOUT_MS',
        DEFAULT_LISTEN_LIMITS.requestTimeoutMs,
        100,
        3_600_000,
      ),
      connectionsPerAddress: wholeNumber(
        env,
        'HTTP_CONNECTIONS_PER_ADDRESS',
        DEFAULT_LISTEN_LIMITS.connectionsPerAddress,
        1,
        1_000_000,
      ),
    },
    mqttPublishQuotas: mqttPublishQuotas(env),
    webhooks: webhooks(env, root),
    metricsToken: metricsToken(env),
    logLevel: logLevel(env),
    ...testClock(env),
  };
}

function testClock(env: NodeJS.ProcessEnv): Pick<Config, 'testClockShiftMs'> {
  const shift = testClockShiftMs(env);
  return shift === undefined ? {} : { testClockShiftMs: shift };
}

/**
 * SWITCHBOARD_TEST_CLOCK moves every clock of a test run to a pinned instant (clock.ts); it is
 * refused unless NODE_ENV=test, so no production server can be made to read a wrong time
 * (decisions-server.md §69).
 */
export function testClockShiftMs(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[TEST_CLOCK_VARIABLE];
  if (raw === undefined || raw === '') return undefined;
  if (env.NODE_ENV !== 'test')
    throw new ConfigError(`${TEST_CLOCK_VARIABLE} is for test runs only: it is refused unless NODE_ENV=test.`);
  try {
    return testClockShift(raw);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  if (!isLogLevel(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}".`);
  return raw;
}

/** At least 16 characters without spaces: a scrape credential worth the name, and one header value. */
function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw))
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 32`).');
  return raw;
}

function webhooks(env: NodeJS.ProcessEnv, root: string): WebhooksConfig {
  let endpoints: ConfiguredWebhook[];
  try {
    endpoints = parseWebhooks(env.WEBHOOKS, root);
  } catch (error) {
    if (error instanceof WebhooksConfigError) throw new ConfigError(error.message);
    throw error;
  }
  const raw = env.WEBHOOK_RETRY_DELAYS_MS;
  let retryDelaysMs: number[] | undefined;
  if (raw !== undefined && raw !== '') {
    const parts = raw.split(',').map((p) => p.trim());
    if (parts.length > 30 || !parts.every((p) => /^\d{2,9}$/.test(p)))
      throw new ConfigError(
        `WEBHOOK_RETRY_DELAYS_MS must be up to 30 waits in milliseconds (each 10 or more) separated by commas, like 10000,30000,120000, got "${raw}".`,
      );
    retryDelaysMs = parts.map(Number);
  }
  return {
    endpoints,
    allowPrivate: flag(env, 'ALLOW_PRIVATE_WEBHOOK_URLS'),
    timeoutMs: wholeNumber(env, 'WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_TIMEOUT_MS, 100, 120_000),
    ...(retryDelaysMs ? { retryDelaysMs } : {}),
  };
}

function allowedHosts(env: NodeJS.ProcessEnv): string[] {
  const raw = env.ALLOWED_HOSTS;
  if (raw === undefined || raw.trim() === '') return [];
  if (raw.trim() === '*') return ['*'];
  return raw.split(',').map((entry) => {
    const name = /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(entry.trim()) ? hostName(entry.trim()) : undefined;
    if (!name)
      throw new ConfigError(
        `ALLOWED_HOSTS must be host names separated by commas (or *), like console.example.com,switchboard.internal, got "${raw}".`,
      );
    return name;
  });
}

function trustProxy(env: NodeJS.ProcessEnv): TrustedProxies {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw.trim() === '') return [];
  const parsed = parseTrustedProxies(raw);
  if (!parsed)
    throw new ConfigError(
      `TRUST_PROXY must be IP addresses or CIDR ranges separated by commas, like 127.0.0.1,10.0.0.0/8, got "${raw}".`,
    );
  return parsed;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 0 or 1, got "${raw}".`);
}

function externalServices(env: NodeJS.ProcessEnv): ConfiguredService[] {
  try {
    return parseExternalServices(env.EXTERNAL_SERVICES);
  } catch (error) {
    if (error instanceof ServicesConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

// ── External broker ───────────────────────────────────────────────────────
// MQTT_URL points the BFF and the gateway at Mosquitto 2 with its dynamic-security plugin. The
// server connects as MQTT_USERNAME/MQTT_PASSWORD (made by `cli broker setup`); the CLI
// provisions agents as the plugin's admin, MQTT_ADMIN_USERNAME/MQTT_ADMIN_PASSWORD. Passwords
// are checked where they are needed (server start, CLI), so `agents list` works without them.

export interface ExternalMqttConfig {
  readonly url: string;
  readonly username: string;
  readonly password: string | undefined;
  /** The server's MQTT client id; each instance needs its own (its credential is bound to it). */
  readonly clientId: string;
  readonly adminUsername: string | undefined;
  readonly adminPassword: string | undefined;
}

const MQTT_SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];

function externalMqtt(env: NodeJS.ProcessEnv): ExternalMqttConfig | undefined {
  const raw = env.MQTT_URL;
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`MQTT_URL must be a URL like mqtt://host:1883, got "${raw}".`);
  }
  if (!MQTT_SCHEMES.includes(url.protocol))
    throw new ConfigError(`MQTT_URL must start with mqtt://, mqtts://, ws:// or wss://, got "${raw}".`);
  if (url.username || url.password)
    throw new ConfigError('MQTT_URL must not carry credentials; set MQTT_USERNAME and MQTT_PASSWORD.');
  return {
    url: raw,
    username: env.MQTT_USERNAME || 'switchboard-server',
    password: env.MQTT_PASSWORD || undefined,
    clientId: env.MQTT_CLIENT_ID || 'switchboard-server',
    adminUsername: env.MQTT_ADMIN_USERNAME || undefined,
    adminPassword: env.MQTT_ADMIN_PASSWORD || undefined,
  };
}
