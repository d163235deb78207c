import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';

const spec = readFileSync(
  fileURLToPath(new URL('../../../shared/specs/000_149630a9b4c77eaf.txt', import.meta.url)),
  'utf8',
);

describe('error codes', () => {
  it('are exactly the five of the §5 table', () => {
    const table = spec.slice(spec.indexOf('## 5. Error Handling'), spec.indexOf('## 6.'));
    const codes = [...table.matchAll(/\*\*`(OACOP_[A-Z_]+)`\*\*/g)].map((m) => m[1]);
    expect(Object.values(OacopErrorCode).sort()).toEqual(codes.sort());
  });

  it("keep project codes apart from the spec's", () => {
    for (const code of Object.values(OacopLocalErrorCode)) {
      expect(code).toMatch(/^OACOP_/);
      expect(Object.values(OacopErrorCode)).not.toContain(code);
    }
  });
});
