import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, schemaValidatorsSource } from './generate-schema-validators';

describe('the generated OACoP schema validators', () => {
  it('match the schemas: after changing one, run `npx tsx scripts/generate-schema-validators.ts`', () => {
    expect(
      readFileSync(GENERATED_FILE, 'utf8') === schemaValidatorsSource(),
      'shared/oacop/schema-validators.generated.js is stale',
    ).toBe(true);
  });

  it('compile nothing at run time and reach no Ajv compiler', () => {
    const source = schemaValidatorsSource();
    expect(source).not.toMatch(/new Function|\beval\(|require\(/);
    const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(['ajv-formats/dist/formats.js']);
  });
});
