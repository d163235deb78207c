// Fetches the whole transparency log page by page and verifies it in the browser
// (decisions-negotiation.md §34): verifyChain from genesis (links, hashes, time order, each public view against its
// integrity hash, every signature — in bulk via WebCrypto), and the last hash against the head
// the server announces. Progress is reported for long logs; the first broken entry is named.
import { verifyChain } from '@shared/negotiation/transparency-log';
import { fetchLogPage } from '@web/lib/api/transparency-log-page';
import { withBulkCheck } from '@web/lib/negotiation/bulk-check';

export type LogProgress =
  | { readonly phase: 'fetching'; readonly done: number; readonly total: number | null }
  | { readonly phase: 'signatures'; readonly done: number; readonly total: number }
  | { readonly phase: 'chain' };

export type LogVerdict =
  | { readonly ok: true; readonly size: number; readonly headHash: string | null }
  | {
      readonly ok: false;
      readonly size: number;
      readonly brokenIndex: number | null;
      readonly code: string;
      readonly message: string;
    };

export interface LoadedLog {
  readonly entries: ReadonlyArray<Record<string, unknown>>;
  readonly head: { readonly index: number; readonly entry_hash: string; readonly timestamp: string } | null;
  readonly verdict: LogVerdict;
}

const PAGE = 1000;
const nextTick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function loadAndVerifyLog(onProgress: (p: LogProgress) => void, signal?: AbortSignal): Promise<LoadedLog> {
  const entries: Array<Record<string, unknown>> = [];
  let head: LoadedLog['head'] = null;
  let from: number | null = 0;
  onProgress({ phase: 'fetching', done: 0, total: null });
  while (from !== null) {
    const page = await fetchLogPage(from, PAGE, signal);
    entries.push(...page.entries);
    head = page.head;
    onProgress({ phase: 'fetching', done: entries.length, total: page.size });
    from = page.next_from !== null && page.entries.length > 0 ? page.next_from : null;
  }
  const chain = await withBulkCheck((check) => verifyChain(entries, check), {
    onProgress: (done, total) => onProgress({ phase: 'signatures', done, total }),
  });
  onProgress({ phase: 'chain' });
  await nextTick();
  if (!chain.ok) {
    const index = chain.error.details?.['index'];
    return {
      entries,
      head,
      verdict: {
        ok: false,
        size: entries.length,
        brokenIndex: typeof index === 'number' ? index : null,
        code: chain.error.code,
        message: chain.error.message,
      },
    };
  }
  // The chain is only as good as the head it ends at: it must be the head the server announces.
  if ((head?.entry_hash ?? null) !== (entries.length === 0 ? null : chain.value.head_hash)) {
    return {
      entries,
      head,
      verdict: {
        ok: false,
        size: entries.length,
        brokenIndex: entries.length - 1,
        code: 'LOG_HEAD_MISMATCH',
        message: 'The last entry’s hash is not the head the server announces.',
      },
    };
  }
  return { entries, head, verdict: { ok: true, size: entries.length, headHash: head?.entry_hash ?? null } };
}
