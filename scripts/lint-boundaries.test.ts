// The import boundaries are part of the architecture (STYLE.md rule 1, bulletproof-react):
// this proves the lint rules fire, so a config change cannot silently switch them off.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The probes exist in no tsconfig, so type-aware rules (which need a program) are off for them.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }] });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint loads the TypeScript resolver and the whole config: seconds on a busy machine.
describe('import boundaries', { timeout: 60_000 }, () => {
  it.each([
    ['node:fs', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;"],
    ['a bare Node module', "import { createHash } from 'crypto';\nexport const f = createHash;"],
    ['React', "import { useState } from 'react';\nexport const f = useState;"],
    ['Hono', "import { Hono } from 'hono';\nexport const f = Hono;"],
    ['mqtt', "import mqtt from 'mqtt';\nexport const f = mqtt;"],
    ['the server', "import { createApp } from '../../server/app';\nexport const f = createApp;"],
    ['the web app', "import { queryClient } from '@web/lib/query-client';\nexport const f = queryClient;"],
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
    const cross = "import { OverviewPage } from '../overview/overview-page';\nexport const f = OverviewPage;";
    expect(await ruleIds('web/features/probe/probe-page.tsx', cross)).toContain('boundaries/dependencies');
    const within = "import { OverviewPage } from './overview-page';\nexport const f = OverviewPage;";
    expect(await ruleIds('web/features/overview/probe.tsx', within)).toEqual([]);
    const fromApp = "import { OverviewPage } from '@web/features/overview/overview-page';\nexport const f = OverviewPage;";
    expect(await ruleIds('web/app/probe.tsx', fromApp)).toEqual([]);
  });
});
