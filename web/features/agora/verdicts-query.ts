// Signature verdicts for a thread's envelopes, as a query so TanStack Query owns the async
// work. Keyed by each envelope's JSON text: a verdict can never be shown beside an envelope
// other than the one it was computed for, even if the server's answer changes between reads.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { envelopeText as text } from './thread-timeline';
import { verifyEnvelopes, type Verdict } from './verify-envelopes';

export const verdictsQuery = (events: readonly { readonly envelope: unknown }[]) => {
  const texts = events.map((e) => text(e.envelope));
  return queryOptions({
    queryKey: ['agora', 'verdicts', texts],
    queryFn: async (): Promise<ReadonlyMap<string, Verdict>> => {
      const verdicts = await verifyEnvelopes(events.map((e) => e.envelope));
      return new Map(texts.map((t, i) => [t, verdicts[i]!]));
    },
    staleTime: Infinity,
    // Verdicts are looked up by text, so the previous map can only answer for unchanged envelopes.
    placeholderData: keepPreviousData,
    enabled: events.length > 0,
    // Local work: never paused for "offline".
    networkMode: 'always',
  });
};
