// The import boundaries are part of the architecture:
// this proves the lint rules fire, so a config change cannot silently switch them off.
import { resolve as absolute } from 'node:path';
import { ESLint } from 'eslint';
import { resolve as resolveImport } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The probes exist in no tsconfig, so type-aware rules (which need a program) are off for them.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
});

/** The resolver eslint.config.js gives the boundary rules (`import/resolver`). */
const RESOLVER = { project: './tsconfig.json' };

/**
 * The imports in `code` that do not resolve from `filePath`. The boundary rules let an import
 * they cannot resolve through (it belongs to no element), so a probe with a mistyped path would
 * pass as "allowed" while proving nothing.
 */
function unresolved(filePath: string, code: string): string[] {
  const sources = [...code.matchAll(/\bfrom '([^']+)'/g)].map((m) => m[1]!);
  return sources.filter((source) => !resolveImport(source, absolute(filePath), RESOLVER).found);
}

/** The rules the probe breaks; every import in it must resolve first. */
async function ruleIds(filePath: string, code: string): Promise<string[]> {
  expect(unresolved(filePath, code), `imports in the probe for ${filePath} that do not resolve`).toEqual([]);
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint loads the TypeScript resolver and the whole config: seconds on a busy machine.
describe('import boundaries', { timeout: 60_000 }, () => {
  it('refuses a probe whose import does not resolve, which the boundary rule alone lets through', async () => {
    const typo = "import { recordBurn } from '../oacop/ledgr';\nexport const f = 1;";
    expect(unresolved('server/routes/probe.ts', typo)).toEqual(['../oacop/ledgr']);
    const [result] = await eslint.lintText(typo, { filePath: 'server/routes/probe.ts' });
    expect(result?.messages.map((m) => m.ruleId)).not.toContain('boundaries/dependencies');
    await expect(ruleIds('server/routes/probe.ts', typo)).rejects.toThrow('do not resolve');
  });

  it.each([
    ['node:fs', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;"],
    ['a bare Node module', "import { createHash } from 'crypto';\nexport const f = createHash;"],
    ['React', "import { useState } from 'react';\nexport const f = useState;"],
    ['Hono', "import { Hono } from 'hono';\nexport const f = Hono;"],
    ['mqtt', "import mqtt from 'mqtt';\nexport const f = mqtt;"],
    ['the server', "import { createApp } from '../../server/app';\nexport const f = createApp;"],
    ['the web app', "import { queryClient } from '@web/lib/query-client';\nexport const f = queryClient;"],
    ['the agents', "import { AgoraClient } from '@agents/agora/agora-client';\nexport const f = AgoraClient;"],
  ])('refuses %s in shared/', async (_label, code) => {
    expect(await ruleIds('shared/crypto/probe.ts', code)).toContain('no-restricted-imports');
  });

  it('lets shared/ use its own modules and pure libraries', async () => {
    const code = "import { sha256 } from './sha256';\nimport { z } from 'zod';\nexport const f = [sha256, z];";
    expect(await ruleIds('shared/crypto/probe.ts', code)).toEqual([]);
  });

  it('lets shared/ tests read vector files from disk', async () => {
    const code = "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;";
    expect(await ruleIds('shared/crypto/probe.test.ts', code)).toEqual([]);
  });

  it('refuses one web feature importing another, and allows imports within a feature', async () => {
    const cross = "import { InboxPage } from '../inbox/inbox-page';\nexport const f = InboxPage;";
    expect(await ruleIds('web/features/probe/probe-page.tsx', cross)).toContain('boundaries/dependencies');
    const within = "import { InboxPage } from './inbox-page';\nexport const f = InboxPage;";
    expect(await ruleIds('web/features/inbox/probe.tsx', within)).toEqual([]);
    const fromApp = "import { InboxPage } from '@web/features/inbox/inbox-page';\nexport const f = InboxPage;";
    expect(await ruleIds('web/app/probe.tsx', fromApp)).toEqual([]);
  });

  // The server's layers: routes → domain → store; the demo and the composition above them all.
  it.each([
    ['the store importing a route', 'server/store/probe.ts', "import { authRoutes } from '../routes/auth';"],
    ['the store importing the domain', 'server/store/probe.ts', "import { recordBurn } from '@server/oacop/ledger';"],
    [
      'the store importing the configuration',
      'server/store/sqlite/probe.ts',
      "import { loadConfig } from '../../config';",
    ],
    [
      'the store importing an agent',
      'server/store/probe.ts',
      "import { AgoraClient } from '@agents/agora/agora-client';",
    ],
    ['the log importing the store', 'server/logging/probe.ts', "import type { Store } from '../store/store';"],
    ['the log importing the configuration', 'server/logging/probe.ts', "import { loadConfig } from '../config';"],
    ['the domain importing a route', 'server/relay/probe.ts', "import { eventsRoutes } from '../routes/events';"],
    [
      'the domain importing the demo',
      'server/oacop/probe.ts',
      "import { startOacopDemo } from '../demo/oacop/oacop-demo';",
    ],
    [
      'the domain importing the runtime',
      'server/gateway/probe.ts',
      "import { startSwitchboard } from '../runtime/start-switchboard';",
    ],
    [
      'a route importing the demo',
      'server/routes/probe.ts',
      "import { seedThreads } from '../demo/agora/seed-threads';",
    ],
    [
      'an agent importing the server',
      'agents/oacop/probe.ts',
      "import { TokenBucketLimiter } from '../../server/http/rate-limit';",
    ],
    [
      'an agent importing the server by alias',
      'agents/agora/probe.ts',
      "import type { OacopStore } from '@server/store/oacop-store';",
    ],
    ['an agent importing the web app', 'agents/aor/probe.ts', "import { queryClient } from '@web/lib/query-client';"],
    [
      'an agent test importing more of the server than its test support',
      'agents/aor/probe.test.ts',
      "import { createApp } from '@server/app';",
    ],
  ])('refuses %s', async (_label, filePath, code) => {
    expect(await ruleIds(filePath, `${code}\nexport const f = 1;`)).toContain('boundaries/dependencies');
  });

  it.each([
    [
      'a route importing the domain and the store',
      'server/routes/probe.ts',
      "import { recordBurn } from '../oacop/ledger';\nimport type { Store } from '../store/store';",
    ],
    [
      'the domain importing the store and an agent',
      'server/oacop/probe.ts',
      "import type { OacopStore } from '../store/oacop-store';\nimport type { AgoraClient } from '@agents/agora/agora-client';",
    ],
    [
      'the store importing the log',
      'server/store/sqlite/probe.ts',
      "import { moduleLogger } from '../../logging/logger';",
    ],
    [
      'the store importing itself and shared/',
      'server/store/probe.ts',
      "import type { Store } from './store';\nimport { ok } from '@shared/errors';",
    ],
    [
      "the composition's engine choice reading the configuration",
      'server/store/open-store.ts',
      "import type { Config } from '../config';",
    ],
    [
      'the composition importing the demo',
      'server/runtime/demos.ts',
      "import { startDemo } from '../demo/start-demo';",
    ],
    [
      'the demo importing the domain and the agents',
      'server/demo/probe.ts',
      "import { recordBurn } from '../oacop/ledger';\nimport { connectAgent } from '@agents/aor/agent-client';",
    ],
    [
      'an agent importing shared/, packages and other agents',
      'agents/oacop/probe.ts',
      "import mqtt from 'mqtt';\nimport { ok } from '@shared/errors';\nimport type { AgoraClient } from '../agora/agora-client';",
    ],
    [
      'an agent test starting a server from the test support',
      'agents/aor/probe.test.ts',
      "import { startRoomHarness } from '@server/test-support/room-harness';",
    ],
    [
      'a domain test driving the demo',
      'server/oacop/probe.test.ts',
      "import { startOacopDemo } from '../demo/oacop/oacop-demo';",
    ],
  ])('allows %s', async (_label, filePath, code) => {
    // Only the boundary rule matters here: the probes import names they do not use.
    expect(await ruleIds(filePath, `${code}\nexport const f = 1;`)).not.toContain('boundaries/dependencies');
  });
});
