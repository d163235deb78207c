// Words a line break splits: each run of non-space characters inside one text node must render on
// one line. A break between text nodes (at a <wbr> a BreakableId puts after a separator) or at a
// space is not counted, so "agent." / "fleet" passes and "agen" / "t.fleet" does not.
import type { Locator } from '@playwright/test';

/** The words split across lines inside `cells`, as "cell text: word"; empty when none is. */
export async function wordsSplitAcrossLines(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((elements) =>
    elements.flatMap((cell) => {
      const split: string[] = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/gu)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) split.push(`${cell.textContent?.trim() ?? ''}: ${word[0]}`);
        }
      }
      return split;
    }),
  );
}
