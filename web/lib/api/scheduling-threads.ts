// GET /api/scheduling/threads (server/README.md "OACoP read models"): thread summaries, newest
// activity first. The shape is shared/oacop's projection; only the envelope is checked here.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { Slot } from '@shared/oacop/messages';
import type { ParticipantPhase } from '@shared/oacop/scheduling-projection';
import { getJson } from './http';

export interface ThreadSummary {
  readonly threadId: string;
  readonly status: 'PROPOSED' | 'CONFIRMED' | 'CANCELLED';
  readonly revision: number;
  readonly initiator: string;
  readonly title?: string;
  readonly duration?: string;
  readonly timeWindow?: Slot;
  readonly finalSlot?: Slot | null;
  readonly participants: readonly { did: string; required: boolean; phase: ParticipantPhase; revision: number }[];
  readonly updatedAt: number;
}

const Summary = z.looseObject({ threadId: z.string(), status: z.enum(['PROPOSED', 'CONFIRMED', 'CANCELLED']), revision: z.number(), participants: z.array(z.looseObject({ did: z.string() })) });
const Answer = z.object({ threads: z.array(Summary) });

export const schedulingThreadsQuery = queryOptions({
  queryKey: ['oacop', 'threads'],
  queryFn: async ({ signal }) => (await getJson('/api/scheduling/threads', Answer, { signal })).threads as unknown as ThreadSummary[],
  refetchInterval: 3_000,
});
