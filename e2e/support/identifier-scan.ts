// What a person reads in a screen's main content must be names and words, not identifiers
// (decisions-web.md §33): no did:key, UUID, ISO 8601 timestamp or ISO duration outside the places
// meant for them: inspectors and dialogs, a name's id panel and tooltips (title attributes are not
// text), and the open "Show the proof" disclosures (marked data-proof).
import type { Page } from '@playwright/test';

export const IDENTIFIER_PATTERNS: Readonly<Record<string, RegExp>> = {
  'did:key': /did:key:/g,
  UUID: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  'ISO timestamp': /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g,
  'ISO duration': /\bP(?:\d+[YMWD]|T\d+(?:\.\d+)?[HMS])\w*/g,
};

/** The visible text of `main`, without proof disclosures, name panels and dialogs. */
export async function mainText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return '';
    const hidden = [...main.querySelectorAll<HTMLElement>('[data-proof], [data-testid="name-id"], [role="dialog"]')];
    const before = hidden.map((e) => e.style.display);
    for (const e of hidden) e.style.display = 'none';
    const text = main.innerText;
    hidden.forEach((e, i) => (e.style.display = before[i]!));
    return text;
  });
}

/** Each identifier found in the main content, with a little of the text around it. */
export async function identifiersInMain(page: Page): Promise<string[]> {
  const text = await mainText(page);
  const found: string[] = [];
  for (const [kind, pattern] of Object.entries(IDENTIFIER_PATTERNS))
    for (const m of text.matchAll(pattern))
      found.push(
        `${kind}: …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\s+/g, ' ')}…`,
      );
  return found;
}
