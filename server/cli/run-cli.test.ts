// Every rule of the operator CLI, in-process (runCli with captured output) over a real store in
// a temp DATA_DIR. The process-level contract (exact stdout, exit codes) is in ../cli.test.ts.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { generateKeyPair } from '@shared/crypto/ed25519';
import { tokenHash } from '../auth/tokens';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { runCli } from './run-cli';

const root = mkdtempSync(join(tmpdir(), 'switchboard-run-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const NOW = 1_760_000_000_000;

async function cli(dataDir: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { DATA_DIR: dataDir },
    cwd: root,
    now: () => NOW,
  });
  return { code, stdout, stderr };
}

const freshDataDir = () => join(root, `data-${++dirs}`);
const didKey = () => encodeDidKey(generateKeyPair().publicKey);

async function withStore<T>(dataDir: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = new SqliteStore({ file: join(dataDir, 'switchboard.sqlite') });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('ledger', () => {
  it('credits a DID (amounts add up exactly) so it can burn; prints the new balance', async () => {
    const dataDir = freshDataDir();
    const did = didKey();
    expect(await cli(dataDir, 'ledger', 'credit', did, '10.5')).toEqual({
      code: 0,
      stdout: `Credited 10.5 to ${did}; it now holds 10.5.\n`,
      stderr: '',
    });
    const again = await cli(dataDir, 'ledger', 'credit', did, '0.25', '--json');
    expect(JSON.parse(again.stdout)).toEqual({ did, credited: '0.25', balance: '10.75' });
    expect(await withStore(dataDir, (store) => store.oacop.balanceOf(did))).toBe('10.75');
  });

  it.each([['0'], ['0.00'], ['1.123456789'], ['abc'], ['1e5'], ['01']])(
    'refuses the amount %s as a usage error, crediting nothing',
    async (amount) => {
      const dataDir = freshDataDir();
      const did = didKey();
      const run = await cli(dataDir, 'ledger', 'credit', did, amount);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^switchboard: INVALID_AMOUNT: /);
      expect(await withStore(dataDir, (store) => store.oacop.balanceOf(did))).toBe('0');
    },
  );

  it('refuses a DID that is not a did:key', async () => {
    const run = await cli(freshDataDir(), 'ledger', 'credit', 'did:web:example.com', '1');
    expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(/^switchboard: INVALID_DID: /) });
  });
});

describe('agents', () => {
  it('add without --json says how to connect, showing the password once', async () => {
    const run = await cli(freshDataDir(), 'agents', 'add', 'bot');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/username: bot\n {2}password: [A-Za-z0-9_-]{43}\n/);
  });

  it.each([['a/b'], ['a+b'], ['a#b'], ['has space'], ['tab\there'], ['zero\u200bwidth'], [''], ['x'.repeat(129)]])(
    'refuses the agentId %j as a usage error',
    async (id) => {
      const dataDir = freshDataDir();
      const run = await cli(dataDir, 'agents', 'add', id);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(/^switchboard: INVALID_AGENT_ID: [^\n]*\n$/);
    },
  );

  it('accepts an agentId of exactly 128 characters, and non-ASCII ones', async () => {
    expect((await cli(freshDataDir(), 'agents', 'add', 'x'.repeat(128), '--json')).code).toBe(0);
    expect((await cli(freshDataDir(), 'agents', 'add', 'agent-é', '--json')).code).toBe(0);
  });

  it('audits add, rotate and remove as cli, never with the password', async () => {
    const dataDir = freshDataDir();
    const added = await cli(dataDir, 'agents', 'add', 'bot', '--json');
    const rotated = await cli(dataDir, 'agents', 'add', 'bot', '--rotate', '--json');
    expect((await cli(dataDir, 'agents', 'remove', 'bot')).code).toBe(0);
    expect(await cli(dataDir, 'agents', 'remove', 'bot')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^switchboard: AGENT_NOT_FOUND: /),
    });
    const audit = await withStore(dataDir, (store) => store.access.listAudit({ limit: 10 }));
    expect(audit.map((a) => [a.action, a.actorDid]).reverse()).toEqual([
      ['agent.create', 'cli'],
      ['agent.rotate', 'cli'],
      ['agent.remove', 'cli'],
    ]);
    const passwords = [added, rotated].map((run) => (JSON.parse(run.stdout) as { password: string }).password);
    for (const password of passwords) expect(JSON.stringify(audit)).not.toContain(password);
  });

  it('lists in id order as text and says so when there is none', async () => {
    const dataDir = freshDataDir();
    expect((await cli(dataDir, 'agents', 'list')).stdout).toMatch(/^No agent credentials yet/);
    expect((await cli(dataDir, 'agents', 'list', '--json')).stdout).toBe('[]\n');
    await cli(dataDir, 'agents', 'add', 'zeta', '--json');
    await cli(dataDir, 'agents', 'add', 'alpha', '--json');
    const human = await cli(dataDir, 'agents', 'list');
    expect(human.stdout).toBe(`alpha\t${new Date(NOW).toISOString()}\nzeta\t${new Date(NOW).toISOString()}\n`);
  });

  it('suspends with a reason, shows it in the list, audits it as cli, and resumes', async () => {
    const dataDir = freshDataDir();
    await cli(dataDir, 'agents', 'add', 'zeta', '--json');
    const suspended = await cli(dataDir, 'agents', 'suspend', 'zeta', '--reason', 'floods\tthe room');
    expect(suspended).toMatchObject({ code: 0, stderr: '' });
    const at = new Date(NOW).toISOString();
    expect((await cli(dataDir, 'agents', 'list')).stdout).toBe(
      `zeta\t${at}\tsuspended ${at} by cli: floods the room\n`,
    );
    expect(JSON.parse((await cli(dataDir, 'agents', 'list', '--json')).stdout)).toEqual([
      { agentId: 'zeta', createdAt: NOW, suspended: { at: NOW, by: 'cli', reason: 'floods\tthe room' } },
    ]);
    expect(await cli(dataDir, 'agents', 'resume', 'zeta', '--json')).toMatchObject({
      code: 0,
      stdout: '{"agentId":"zeta","suspended":null}\n',
    });
    expect(await cli(dataDir, 'agents', 'disconnect', 'zeta')).toMatchObject({ code: 0 });
    const audit = await withStore(dataDir, (store) => store.access.listAudit({ limit: 10 }));
    expect(audit.map((a) => [a.action, a.actorDid, a.details])).toEqual([
      ['agent.disconnect', 'cli', { agentId: 'zeta', connections: null }],
      // The suspension a resume lifted stays readable (decisions-server.md §83).
      ['agent.resume', 'cli', { agentId: 'zeta', lifted: { at: NOW, by: 'cli', reason: 'floods\tthe room' } }],
      ['agent.suspend', 'cli', { agentId: 'zeta', reason: 'floods\tthe room' }],
      ['agent.create', 'cli', { agentId: 'zeta' }],
    ]);
    const credential = await withStore(dataDir, (store) => store.access.getAgentCredential('zeta'));
    expect(credential).toMatchObject({ suspended: null, disconnectedAt: NOW });
  });

  it('refuses suspend without a reason (usage), and an unknown agent (refused), changing nothing', async () => {
    const dataDir = freshDataDir();
    await cli(dataDir, 'agents', 'add', 'zeta', '--json');
    const noReason = await cli(dataDir, 'agents', 'suspend', 'zeta');
    expect(noReason).toMatchObject({ code: 2, stdout: '' });
    expect(noReason.stderr).toMatch(/^switchboard: REASON_REQUIRED: /);
    expect((await cli(dataDir, 'agents', 'suspend', 'zeta', '--reason', '   ')).code).toBe(2);
    for (const verb of ['suspend', 'resume', 'disconnect']) {
      const unknown = await cli(dataDir, 'agents', verb, 'ghost', ...(verb === 'suspend' ? ['--reason', 'x'] : []));
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^switchboard: AGENT_NOT_FOUND: /);
    }
    const credential = await withStore(dataDir, (store) => store.access.getAgentCredential('zeta'));
    expect(credential).toMatchObject({ suspended: null, disconnectedAt: null });
    // Only the credential's making is in the audit log: the refusals changed nothing.
    const audit = await withStore(dataDir, (store) => store.access.listAudit({ limit: 10 }));
    expect(audit.map((a) => a.action)).toEqual(['agent.create']);
  });
});

describe('operators', () => {
  it('adds an operator by did:key with a role, lists it, and changes its role', async () => {
    const dataDir = freshDataDir();
    const did = didKey();
    const added = await cli(dataDir, 'operators', 'add', did, '--role', 'observer', '--json');
    expect(added).toMatchObject({ code: 0, stderr: '', stdout: `${JSON.stringify({ did, role: 'observer' })}\n` });
    const changed = await cli(dataDir, 'operators', 'add', did, '--role', 'facilitator');
    expect(changed.stdout).toBe(`Operator ${did} is now facilitator (was observer).\n`);
    expect(JSON.parse((await cli(dataDir, 'operators', 'list', '--json')).stdout)).toEqual([
      { did, role: 'facilitator', createdAt: NOW, name: null },
    ]);
    expect((await cli(dataDir, 'operators', 'list')).stdout).toContain(did);
  });

  it.each([
    ['did:key:zBad'],
    ['did:web:example.com'],
    ['not-a-did'],
    ['did:key:z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc'],
  ])('refuses the did %s (exit 2, INVALID_DID)', async (did) => {
    const dataDir = freshDataDir();
    const run = await cli(dataDir, 'operators', 'add', did, '--role', 'observer');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^switchboard: INVALID_DID: /);
    expect(await withStore(dataDir, (store) => store.access.listOperators())).toEqual([]);
  });

  it('refuses a missing or unknown role as a usage error', async () => {
    const did = didKey();
    expect((await cli(freshDataDir(), 'operators', 'add', did)).stderr).toMatch(/^switchboard: ROLE_REQUIRED: /);
    const unknown = await cli(freshDataDir(), 'operators', 'add', did, '--role', 'admin');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^switchboard: INVALID_ROLE: /);
  });

  /** A server's heartbeat in the store, as a running server writes it (decisions-server.md §85). */
  const serverBeat = (dataDir: string, beatAt = NOW) =>
    withStore(dataDir, (store) =>
      store.access.beatServer({ instance: 'i-1', baseUrl: 'http://127.0.0.1:9123', pid: 1, beatAt }),
    );

  it('invite prints a one-time enrollment link whose token the store accepts once, for 24 hours', async () => {
    const dataDir = freshDataDir();
    await serverBeat(dataDir);
    const run = await cli(
      dataDir,
      'operators',
      'invite',
      '--role',
      'observer',
      '--base-url',
      'https://console.example/',
      '--json',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { link, role, expiresAt, store } = JSON.parse(run.stdout) as {
      link: string;
      role: string;
      expiresAt: number;
      store: string;
    };
    expect(role).toBe('observer');
    expect(store).toBe(`SQLite at ${join(dataDir, 'switchboard.sqlite')}`);
    expect(expiresAt).toBe(NOW + 24 * 3600 * 1000);
    const token = /^https:\/\/console\.example\/enroll#token=([A-Za-z0-9_-]{43})$/.exec(link)?.[1];
    expect(token).toBeDefined();
    await withStore(dataDir, async (store) => {
      expect(await store.access.consumeEnrollment(tokenHash(token!), NOW)).toBe('observer');
      expect(await store.access.consumeEnrollment(tokenHash(token!), NOW)).toBeUndefined();
      // Audited as the CLI's invitation, without the token.
      const [entry] = await store.access.listActivity({ limit: 1, kind: 'operator' });
      expect(entry).toMatchObject({ action: 'operator.invite', actorDid: 'cli', details: { role: 'observer' } });
      expect(JSON.stringify(entry)).not.toContain(token!);
    });
  });

  it('invite uses the address of the server that uses the store, and says which store it wrote to', async () => {
    const dataDir = freshDataDir();
    await serverBeat(dataDir);
    const human = await cli(dataDir, 'operators', 'invite', '--role', 'facilitator');
    expect(human.stdout).toContain(
      `Store: SQLite at ${join(dataDir, 'switchboard.sqlite')}, used by the server at http://127.0.0.1:9123.\n`,
    );
    expect(human.stdout).toMatch(/\nhttp:\/\/127\.0\.0\.1:9123\/enroll#token=[A-Za-z0-9_-]{43}\n$/);
  });

  it('invite refuses a store no running server uses, naming it, and makes no link', async () => {
    const dataDir = freshDataDir();
    const none = await cli(dataDir, 'operators', 'invite', '--role', 'facilitator');
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toMatch(
      /^switchboard: NO_SERVER: no running Switchboard uses SQLite at .*switchboard\.sqlite /,
    );
    expect(none.stderr).toContain('DATA_DIR');
    // A server whose last beat is older than three beats is gone.
    await serverBeat(dataDir, NOW - 46_000);
    expect((await cli(dataDir, 'operators', 'invite', '--role', 'facilitator')).stderr).toMatch(/NO_SERVER/);
    expect(await withStore(dataDir, (store) => store.access.listPendingInvites(NOW))).toEqual([]);
  });

  it('refuses a --base-url that is not http(s)', async () => {
    const run = await cli(
      freshDataDir(),
      'operators',
      'invite',
      '--role',
      'observer',
      '--base-url',
      'javascript:alert(1)',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^switchboard: INVALID_BASE_URL: /);
  });
});

describe('usage', () => {
  it.each([
    [['rooms', 'list'], 'UNKNOWN_COMMAND'],
    [['agents'], 'UNKNOWN_COMMAND'],
    [['agents', 'add'], 'USAGE'],
    [['agents', 'add', 'a', 'b'], 'USAGE'],
    [['agents', 'list', '--rotate'], 'USAGE'],
    [['agents', 'list', '--bogus'], 'USAGE'],
    [['operators', 'invite', '--role'], 'USAGE'],
  ])('answers %j with exit 2 and one coded line', async (args, code) => {
    const run = await cli(freshDataDir(), ...args);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(new RegExp(`^switchboard: ${code}: [^\\n]*\\n$`));
  });

  it('prints the help for --help, -h and help', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['agents', 'add', '--help']]) {
      const run = await cli(freshDataDir(), ...args);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain('Exit codes: 0 done, 1 refused or failed, 2 usage error.');
    }
  });
});

describe('backup and restore', () => {
  it('takes exactly one <file>; other options are usage errors (exit 2)', async () => {
    const dataDir = freshDataDir();
    expect(await cli(dataDir, 'backup')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'switchboard: USAGE: "backup" takes <file> (see --help)\n',
    });
    expect((await cli(dataDir, 'restore', 'a', 'b')).code).toBe(2);
    expect((await cli(dataDir, 'restore', 'a', '--force')).stderr).toBe(
      'switchboard: USAGE: "restore" has no --force option (see --help)\n',
    );
  });

  it('refuses a backup of a DATA_DIR without a database, creating neither it nor the file', async () => {
    const dataDir = freshDataDir();
    const run = await cli(dataDir, 'backup', 'nothing.sqlite');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^switchboard: NO_DATABASE: [^\n]*\n$/);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(join(root, 'nothing.sqlite'))).toBe(false);
  });

  it('with --force replaces an existing backup, which then holds what was written since', async () => {
    const dataDir = freshDataDir();
    const target = join(root, `forced-${dirs}.sqlite`);
    await cli(dataDir, 'agents', 'add', 'first');
    expect((await cli(dataDir, 'backup', target)).code).toBe(0);
    await cli(dataDir, 'agents', 'add', 'second');
    expect((await cli(dataDir, 'backup', target)).code).toBe(1);
    const forced = await cli(dataDir, 'backup', target, '--force', '--json');
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(forced.stdout)).toMatchObject({ file: target, rooms: 0, messages: 0, ms: 0 });
    const restoredDir = freshDataDir();
    expect((await cli(restoredDir, 'restore', target)).code).toBe(0);
    expect(
      await withStore(restoredDir, async (store) => (await store.access.listAgentCredentials()).map((a) => a.agentId)),
    ).toEqual(['first', 'second']);
    expect(readdirSync(root).filter((name) => name.includes('.partial-'))).toEqual([]);
  });
});
