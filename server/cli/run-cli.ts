// The operator CLI: what an administrator scripts. It opens the same store as the
// server (DATA_DIR), so it works while the server runs. Output contract: results on stdout
// (with --json exactly one JSON document and a newline), every error one coded line on stderr;
// exit 0 done, 1 refused or failed, 2 usage (unknown command or option, invalid argument).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_ID_LENGTH } from '@shared/aor/ids';
import { decodeDidKey } from '@shared/crypto/did-key';
import { isCodedError } from '@shared/errors';
import { ENROLLMENT_TTL_MS, enrollmentLink, inviteOperator } from '../auth/enrollment';
import { liveServers, SERVER_GONE_MS } from '../auth/server-heartbeat';
import { generateAgentPassword } from '../auth/password';
import { ConfigError, loadConfig, type Config } from '../config';
import { isAmount, toUnits } from '@shared/oacop/ledger-amount';
import { openStore, sqliteFileFor } from '../store/open-store';
import { backupSqlite, BackupRefusal, restoreSqlite } from './sqlite-backup';
import type { OperatorRole } from '../store/store';
import { AGENT_COMMANDS } from './agent-commands';
import {
  CliFailure,
  iso,
  json,
  OPTIONS,
  refused,
  usage,
  withBroker,
  type CliIo,
  type Command,
  type OptionName,
  type Parsed,
} from './cli-kit';

export const USAGE = `Usage: npm run --silent cli -- <command> [options]
   or: node scripts/cli.mjs <command> [options]

Agents (broker credentials: MQTT username = agentId, password as issued):
  agents add <agentId> [--rotate] [--json]
                     create a credential and print its password, once; --rotate replaces
                     the password of an agent that already has one
  agents list [--json]  every credential, and its suspension if any
  agents remove <agentId>
  agents suspend <agentId> --reason <text> [--json]
                     close its connections, refuse it at CONNECT, and end its grants with
                     a revoke the agent and its rooms read <text> in
  agents resume <agentId> [--json]
                     lift a suspension; the grants it lost stay ended
  agents disconnect <agentId> [--json]
                     close its open connections now; it may connect again

External broker (MQTT_URL set: Mosquitto 2 with its dynamic-security plugin; the commands
above also provision the broker, as MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD):
  broker setup [--json]
                     deny-by-default ACL, the server's role, and its client MQTT_USERNAME
                     with MQTT_PASSWORD (generated and printed once when unset)

Operators (people who sign in to the console with a did:key):
  operators add <did> --role facilitator|observer [--json]
                     enroll a did:key directly (or change its role)
  operators list [--json]
  operators invite --role facilitator|observer [--base-url <url>] [--json]
                     print a one-time enrollment link, valid for 24 hours, on the address
                     of the server that uses this store (or <url>); refused when no
                     running server uses it (the Operators screen does the same)

Ledger (the local OAPP ledger: a DID burns only what it holds):
  ledger credit <did> <amount> [--json]
                     add a positive amount (at most 8 decimals) to a did:key's balance

Backup (the embedded SQLite store; with DATABASE_URL use pg_dump, see docs/deploy.md):
  backup <file> [--force] [--json]
                     a consistent copy of the database while the server runs; refuses an
                     existing <file> unless --force
  restore <file> [--json]
                     on a STOPPED server: check <file> and put it in place of the database;
                     the replaced one is kept as switchboard.sqlite.before-restore-<time>

Options:
  --json             machine-readable output: one JSON document on stdout, nothing else
  -h, --help         this help

The store is the server's: SQLite under DATA_DIR (default ./data). An agentId is 1-${MAX_ID_LENGTH}
characters without whitespace, control characters, "/", "+" or "#".
Exit codes: 0 done, 1 refused or failed, 2 usage error.`;

export type { CliIo } from './cli-kit';

function role(value: string | undefined): OperatorRole {
  if (value === undefined) throw usage('ROLE_REQUIRED', '--role facilitator|observer is required');
  if (value !== 'facilitator' && value !== 'observer')
    throw usage('INVALID_ROLE', `--role must be facilitator or observer, got "${value}"`);
  return value;
}

function did(value: string): string {
  try {
    decodeDidKey(value);
    return value;
  } catch (error) {
    throw usage(
      'INVALID_DID',
      `${value.slice(0, 80)} is not an Ed25519 did:key: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function amount(value: string): string {
  if (!isAmount(value) || toUnits(value) === 0n)
    throw usage(
      'INVALID_AMOUNT',
      `amount must be a positive decimal with at most 8 decimals, got "${value.slice(0, 40)}"`,
    );
  return value;
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage('INVALID_BASE_URL', `--base-url must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage('INVALID_BASE_URL', `--base-url must be http or https, got "${value}"`);
  return `${url.origin}${url.pathname}`;
}

/** The SQLite file under DATA_DIR; with DATABASE_URL a refusal pointing at pg_dump. */
function sqliteOnly(config: Config, verb: string): string {
  if (config.databaseUrl !== undefined)
    throw refused(
      'POSTGRES_NOT_SUPPORTED',
      `${verb} covers the embedded SQLite store; with DATABASE_URL use pg_dump -Fc / pg_restore (docs/deploy.md, "Backup and restore")`,
    );
  return sqliteFileFor(config.dataDir);
}

/** Which store a command writes to, without a password: the SQLite file, or PostgreSQL's host and database. */
function storeInWords(config: Config): string {
  if (config.databaseUrl === undefined) return `SQLite at ${sqliteFileFor(config.dataDir)}`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function backupError(error: unknown): never {
  if (error instanceof BackupRefusal) throw refused(error.code, error.message);
  throw error;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  backup: {
    args: ['file'],
    options: ['force', 'json'],
    opensStore: false,
    async run({ args, values, io, config }) {
      const source = sqliteOnly(config, 'backup');
      const result = await backupSqlite(source, resolve(io.cwd, args[0]!), {
        force: values.force === true,
        now: io.now,
      }).catch(backupError);
      if (values.json) return json(io, result);
      io.stdout(
        `Wrote ${result.file}: ${mib(result.bytes)}, schema version ${result.schemaVersion}, ` +
          `${result.rooms} rooms, ${result.messages} messages (${result.ms} ms).\n`,
      );
    },
  },
  restore: {
    args: ['file'],
    options: ['json'],
    opensStore: false,
    async run({ args, values, io, config }) {
      const live = sqliteOnly(config, 'restore');
      let result;
      try {
        result = restoreSqlite(resolve(io.cwd, args[0]!), live, { now: io.now });
      } catch (error) {
        backupError(error);
      }
      if (values.json) return json(io, result);
      io.stdout(
        `Restored ${result.file} from ${args[0]!}: ${mib(result.bytes)}, schema version ${result.schemaVersion}, ` +
          `${result.rooms} rooms, ${result.messages} messages.\n` +
          (result.keptAside.length > 0
            ? `The replaced database is kept as ${result.keptAside.join(', ')}.\n`
            : 'DATA_DIR held no database before.\n'),
      );
    },
  },
  ...AGENT_COMMANDS,
  'broker setup': {
    args: [],
    options: ['json'],
    async run({ values, io, config }) {
      const external = config.mqttExternal;
      if (!external) throw refused('MQTT_URL_REQUIRED', 'broker setup provisions an external broker; set MQTT_URL');
      const password = external.password ?? generateAgentPassword();
      const outcome = await withBroker(config, (admin) =>
        admin!.setupServer(external.username, password, external.clientId),
      );
      const generated = external.password === undefined;
      if (values.json)
        return json(io, {
          username: external.username,
          clientId: external.clientId,
          outcome,
          ...(generated ? { password } : {}),
        });
      io.stdout(
        `${outcome === 'created' ? 'Created' : 'Updated'} the server's broker client "${external.username}" (client id ${external.clientId}) ` +
          `and deny-by-default ACLs on ${external.url}.\n` +
          (generated ? `Start the server with MQTT_PASSWORD=${password}\nThis is the only time it is shown.\n` : ''),
      );
    },
  },
  'ledger credit': {
    args: ['did', 'amount'],
    options: ['json'],
    async run({ args, values, io }, store) {
      const id = did(args[0]!);
      const credited = amount(args[1]!);
      const balance = await store.oacop.credit(id, credited, io.now());
      if (values.json) return json(io, { did: id, credited, balance });
      io.stdout(`Credited ${credited} to ${id}; it now holds ${balance}.\n`);
    },
  },
  'operators add': {
    args: ['did'],
    options: ['role', 'json'],
    async run({ args, values, io }, store) {
      const id = did(args[0]!);
      const wanted = role(values.role);
      const existing = await store.access.getOperator(id);
      await store.access.putOperator({ did: id, role: wanted, createdAt: io.now() });
      if (values.json) return json(io, { did: id, role: wanted });
      io.stdout(
        existing ? `Operator ${id} is now ${wanted} (was ${existing.role}).\n` : `Added operator ${id} as ${wanted}.\n`,
      );
    },
  },
  'operators list': {
    args: [],
    options: ['json'],
    async run({ values, io }, store) {
      const operators = await store.access.listOperators();
      if (values.json) return json(io, operators);
      if (operators.length === 0)
        return io.stdout('No operators yet. Invite one with: operators invite --role facilitator\n');
      // The display name last (decisions-server.md §55): it may hold spaces, never tabs or newlines.
      io.stdout(
        operators.map((o) => `${o.role.padEnd(11)}\t${o.did}\t${iso(o.createdAt)}\t${o.name ?? ''}\n`).join(''),
      );
    },
  },
  'operators invite': {
    args: [],
    options: ['role', 'base-url', 'json'],
    async run({ values, io, config }, store) {
      const wanted = role(values.role);
      const base = values['base-url'] === undefined ? undefined : baseUrl(values['base-url']);
      const now = io.now();
      // A link into a store no server uses can never be opened (decisions-server.md §85).
      const where = storeInWords(config);
      const [server] = await liveServers(store, now);
      if (!server)
        throw refused(
          'NO_SERVER',
          `no running Switchboard uses ${where} (none wrote its heartbeat in the last ${SERVER_GONE_MS / 1000} s), ` +
            `so a link from it could never be used. Start the server, or run this with the ` +
            `${config.databaseUrl === undefined ? 'DATA_DIR' : 'DATABASE_URL'} your server uses.`,
        );
      const invite = await inviteOperator(store, { role: wanted, ttlMs: ENROLLMENT_TTL_MS, by: 'cli', now });
      const link = enrollmentLink(base ?? server.baseUrl, invite.token);
      if (values.json)
        return json(io, { role: wanted, link, expiresAt: invite.expiresAt, store: where, server: server.baseUrl });
      io.stdout(
        `Store: ${where}, used by the server at ${server.baseUrl}.\n` +
          `One-time enrollment link for a new ${wanted} (single use, valid until ${iso(invite.expiresAt)}):\n${link}\n`,
      );
    },
  },
};

function parse(argv: readonly string[]): Parsed {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's parseArgs messages run on with advice about "--"; the first sentence is the point.
    const message = error instanceof Error ? error.message.replace(/\. To specify[\s\S]*$/, '.') : String(error);
    throw usage('USAGE', message);
  }
}

async function execute(argv: readonly string[], io: CliIo): Promise<void> {
  const parsed = parse(argv);
  const [group, action, ...args] = parsed.positionals;
  if (parsed.values.help || group === 'help') {
    io.stdout(`${USAGE}\n`);
    return;
  }
  if (group === undefined) throw usage('USAGE', 'no command given');
  // One-word verbs (backup, restore) take the next word as their first argument.
  const single = COMMANDS[group];
  const name = single ? group : `${group} ${action ?? ''}`.trim();
  if (single && action !== undefined) args.unshift(action);
  const command = COMMANDS[name];
  if (!command) throw usage('UNKNOWN_COMMAND', `unknown command "${name}"`);
  if (args.length !== command.args.length) {
    const shape = command.args.map((a) => `<${a}>`).join(' ');
    throw usage('USAGE', `"${name}" takes ${shape || 'no arguments'}`);
  }
  for (const option of Object.keys(parsed.values) as OptionName[]) {
    if (!command.options.includes(option)) throw usage('USAGE', `"${name}" has no --${option} option`);
  }
  const config = loadConfig(io.env, io.cwd);
  if (command.opensStore === false) return command.run({ args, values: parsed.values, io, config });
  const store = await openStore(config);
  try {
    await command.run({ args, values: parsed.values, io, config }, store);
  } finally {
    await store.close();
  }
}

/** Runs one CLI invocation; resolves to the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    await execute(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof CliFailure) {
      io.stderr(`switchboard: ${error.code}: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      io.stderr(`switchboard: CONFIG_ERROR: ${error.message}\n`);
      return 1;
    }
    if (isCodedError(error)) {
      io.stderr(`switchboard: ${error.code}: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`switchboard: INTERNAL_ERROR: ${message.split('\n')[0]}\n`);
    return 1;
  }
}
