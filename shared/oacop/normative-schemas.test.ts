import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NormativeSchemas, OACOP_MESSAGE_TYPES } from './normative-schemas';

// The spec as published, read-only beside the checkout (../shared/specs).
const specPath = fileURLToPath(new URL('../../../shared/specs/000_149630a9b4c77eaf.txt', import.meta.url));

/** The ```json blocks of OACoP §7, with `//` comments (not JSON) removed. */
function specSchemas(): unknown[] {
  const text = readFileSync(specPath, 'utf8');
  const section = text.slice(text.indexOf('## 7. JSON-Schema Definitions'), text.indexOf('## 8. Appendix'));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks.map((block) => JSON.parse(block.replace(/\s*\/\/[^\n"]*$/gm, '')) as unknown);
}

describe('the §7 schemas', () => {
  it("are exactly the spec's six, once the `//` comments are removed", () => {
    const fromSpec = specSchemas();
    expect(fromSpec).toHaveLength(6);
    expect(OACOP_MESSAGE_TYPES.map((type) => NormativeSchemas[type])).toEqual(fromSpec);
  });

  it('are printed with a comment that is not JSON, which is why they had to be edited', () => {
    const text = readFileSync(specPath, 'utf8');
    expect(text).toContain('"duration": { "type": "string", "pattern": "^P" } // ISO 8601 Duration');
  });

  it('are keyed by the `type` each one requires', () => {
    for (const type of OACOP_MESSAGE_TYPES) expect(NormativeSchemas[type].properties.type).toEqual({ const: type });
  });
});
