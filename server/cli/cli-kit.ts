// What every CLI command is made of: the I/O it is given, its coded failures (exit 1 refused,
// 2 usage), the options it may take, and the broker's dynamic-security admin with MQTT_URL.
import type { parseArgs } from 'node:util';
import { isValidId, MAX_ID_LENGTH } from '@shared/aor/ids';
import type { Config } from '../config';
import { DynsecAdmin } from '../mqtt/mosquitto-dynsec';
import type { Store } from '../store/store';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly now: () => number;
}

export class CliFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export const usage = (code: string, message: string) => new CliFailure(code, `${message} (see --help)`, 2);
export const refused = (code: string, message: string) => new CliFailure(code, message, 1);

export const OPTIONS = {
  json: { type: 'boolean' },
  rotate: { type: 'boolean' },
  reason: { type: 'string' },
  force: { type: 'boolean' },
  role: { type: 'string' },
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
export type OptionName = keyof typeof OPTIONS;

export interface CommandContext {
  readonly args: readonly string[];
  readonly values: Parsed['values'];
  readonly io: CliIo;
  readonly config: Config;
}

export interface CommandShape {
  readonly args: readonly string[];
  readonly options: readonly OptionName[];
}

/** Works through the store the server uses. */
export interface StoreCommand extends CommandShape {
  readonly opensStore?: true;
  run(ctx: CommandContext, store: Store): Promise<void>;
}

/** Works on the database file itself (backup, restore), so opens no store. */
export interface FileCommand extends CommandShape {
  readonly opensStore: false;
  run(ctx: CommandContext): Promise<void>;
}

export type Command = StoreCommand | FileCommand;

/** The dynamic-security admin of the broker at MQTT_URL; undefined without MQTT_URL. */
export async function brokerAdmin(config: Config): Promise<DynsecAdmin | undefined> {
  const external = config.mqttExternal;
  if (!external) return undefined;
  if (!external.adminUsername || !external.adminPassword) {
    throw refused(
      'BROKER_ADMIN_REQUIRED',
      'MQTT_URL is set: MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD (the dynamic-security admin) are needed to provision the broker',
    );
  }
  return DynsecAdmin.connect({
    url: external.url,
    username: external.adminUsername,
    password: external.adminPassword,
    reservedUsernames: [external.username],
  });
}

export async function withBroker<T>(config: Config, work: (admin: DynsecAdmin | undefined) => Promise<T>): Promise<T> {
  const admin = await brokerAdmin(config);
  try {
    return await work(admin);
  } finally {
    await admin?.close();
  }
}

export const json = (io: CliIo, value: unknown) => io.stdout(`${JSON.stringify(value)}\n`);
export const iso = (ms: number) => new Date(ms).toISOString();

export function agentId(value: string): string {
  if (!isValidId(value)) {
    throw usage(
      'INVALID_AGENT_ID',
      `agentId must be 1-${MAX_ID_LENGTH} characters without whitespace, control characters, "/", "+" or "#"`,
    );
  }
  return value;
}
