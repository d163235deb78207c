// The Store contract, the inbox's dismissals (decisions-server.md §75): recorded once per item with
// the later `since`, listed for the board at start, pruned after DISMISSAL_KEPT_MS.
// store-suite.ts composes the parts under one describe; `store()` is the current test's fresh store.
import { describe, expect, it } from 'vitest';
import { DISMISSAL_KEPT_MS } from '../inbox-store';
import type { Store } from '../store';
import { T0 } from './fixtures';

export function describeInboxDismissalsContract(store: () => Store): void {
  describe('inbox dismissals', () => {
    it('keeps one dismissal per item with its later since, lists them, and prunes the old ones', async () => {
      const inbox = store().inbox;
      await inbox.dismiss({ itemId: 'slot:b', since: T0 + 5, by: 'did:key:zA', at: T0 + 10 });
      await inbox.dismiss({ itemId: 'slot:a', since: T0, by: 'did:key:zA', at: T0 + 1 });
      // Dismissed again (a later fact under the same id), and once more as it was before: the later since holds.
      await inbox.dismiss({ itemId: 'slot:b', since: T0 + 50, by: 'did:key:zB', at: T0 + 60 });
      await inbox.dismiss({ itemId: 'slot:b', since: T0 + 5, by: 'did:key:zB', at: T0 + 70 });
      expect(await inbox.listDismissals()).toEqual([
        { itemId: 'slot:a', since: T0, by: 'did:key:zA', at: T0 + 1 },
        { itemId: 'slot:b', since: T0 + 50, by: 'did:key:zB', at: T0 + 70 },
      ]);
      expect(await inbox.pruneDismissals(T0 + 2 + DISMISSAL_KEPT_MS)).toBe(1);
      expect((await inbox.listDismissals()).map((d) => d.itemId)).toEqual(['slot:b']);
    });
  });
}
