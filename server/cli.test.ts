// The operator CLI as a script runs it: a real process on a real DATA_DIR, checked by its exact
// stdout, stderr and exit code, and by what the server's store then holds. The variants of each
// rule run in-process in cli/run-cli.test.ts; here is the contract a shell sees.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAgentPassword } from './auth/agent-password';

const verifyPassword = async (password: string, stored: string) => (await checkAgentPassword(password, stored)).ok;
import { openPgStore } from './store/pg/pg-store';
import { SqliteStore } from './store/sqlite/sqlite-store';
import { usePgDatabase } from './test-support/pg-database';
import { SERVER_CLI } from './test-support/compiled-entry';

const root = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const pg = usePgDatabase();
let dirs = 0;
const freshDataDir = () => join(root, `data-${++dirs}`);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(dataDir: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [...SERVER_CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function withStore<T>(dataDir: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = new SqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('operator CLI process', () => {
  it('agents add --json prints exactly one JSON line with the password; the store keeps only its hash', async () => {
    const dataDir = freshDataDir();
    const run = await cli(dataDir, ['agents', 'add', 'planner-1', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\{"agentId":"planner-1","password":"[A-Za-z0-9_-]{43}"\}\n$/);
    const { password } = JSON.parse(run.stdout) as { password: string };
    const stored = await withStore(dataDir, (store) => store.access.getAgentCredential('planner-1'));
    // A server-made password is kept as its SHA-256 (decisions-server.md §71).
    expect(stored?.passwordHash).toMatch(/^sha256\$[A-Za-z0-9_-]{43}$/);
    expect(stored?.passwordHash).not.toContain(password);
    expect(await verifyPassword(password, stored!.passwordHash)).toBe(true);
  });

  it('refuses an existing agentId (exit 1, one coded line on stderr) unless --rotate', async () => {
    const dataDir = freshDataDir();
    const first = JSON.parse((await cli(dataDir, ['agents', 'add', 'bot', '--json'])).stdout) as { password: string };
    const again = await cli(dataDir, ['agents', 'add', 'bot', '--json']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^switchboard: AGENT_EXISTS: [^\n]*--rotate[^\n]*\n$/);

    const rotated = await cli(dataDir, ['agents', 'add', 'bot', '--rotate', '--json']);
    expect(rotated.code).toBe(0);
    const second = JSON.parse(rotated.stdout) as { password: string };
    const hash = (await withStore(dataDir, (store) => store.access.getAgentCredential('bot')))!.passwordHash;
    expect(await verifyPassword(second.password, hash)).toBe(true);
    expect(await verifyPassword(first.password, hash)).toBe(false);
  });

  it('refuses a bad agentId as a usage error (exit 2) and stores nothing', async () => {
    const dataDir = freshDataDir();
    const run = await cli(dataDir, ['agents', 'add', 'rooms/x', '--json']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^switchboard: INVALID_AGENT_ID: [^\n]*\n$/);
    expect(await withStore(dataDir, (store) => store.access.listAgentCredentials())).toEqual([]);
  });

  it('lists and removes credentials; removing an unknown agent is exit 1', async () => {
    const dataDir = freshDataDir();
    await cli(dataDir, ['agents', 'add', 'zeta', '--json']);
    await cli(dataDir, ['agents', 'add', 'alpha', '--json']);
    const listed = await cli(dataDir, ['agents', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(listed.stdout) as { agentId: string }[]).map((a) => a.agentId)).toEqual(['alpha', 'zeta']);
    expect(listed.stdout).not.toContain('scrypt');

    expect(await cli(dataDir, ['agents', 'remove', 'zeta'])).toMatchObject({ code: 0, stderr: '' });
    expect(
      await withStore(dataDir, async (store) => (await store.access.listAgentCredentials()).map((a) => a.agentId)),
    ).toEqual(['alpha']);
    const missing = await cli(dataDir, ['agents', 'remove', 'zeta']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^switchboard: AGENT_NOT_FOUND: [^\n]*\n$/);
  });

  it('refuses operators add with a did that is not an Ed25519 did:key (exit 2)', async () => {
    const dataDir = freshDataDir();
    const run = await cli(dataDir, ['operators', 'add', 'did:key:zNotAKey', '--role', 'facilitator']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^switchboard: INVALID_DID: [^\n]*\n$/);
    expect(await withStore(dataDir, (store) => store.access.listOperators())).toEqual([]);
  });

  it('prints help on --help (exit 0) and a coded usage line without a command (exit 2)', async () => {
    const help = await cli(freshDataDir(), ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('agents add <agentId>');
    const none = await cli(freshDataDir(), []);
    expect(none).toMatchObject({ code: 2, stdout: '', stderr: 'switchboard: USAGE: no command given (see --help)\n' });
  });

  it('with DATABASE_URL adds and lists agents in PostgreSQL, and writes nothing under DATA_DIR', async () => {
    const dataDir = freshDataDir();
    const env = { DATABASE_URL: await pg.url() };
    const added = await cli(dataDir, ['agents', 'add', 'pg-bot', '--json'], env);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const { password } = JSON.parse(added.stdout) as { password: string };
    const listed = await cli(dataDir, ['agents', 'list', '--json'], env);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain('pg-bot');
    const store = await openPgStore({ url: env.DATABASE_URL });
    try {
      expect(await verifyPassword(password, (await store.access.getAgentCredential('pg-bot'))!.passwordHash)).toBe(
        true,
      );
    } finally {
      await store.close();
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses an unreachable DATABASE_URL in one coded line naming it (exit 1)', async () => {
    const run = await cli(freshDataDir(), ['agents', 'list'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(
      /^switchboard: CONFIG_ERROR: cannot open the PostgreSQL database [^\n]*\(DATABASE_URL\): [^\n]*\n$/,
    );
  });
});
