// GET /oap/manifest: the Tool's RFC 0002 §3.6 declaration (categories, limits) for the open form.
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from './http';

const Manifest = z.object({
  negotiation: z.object({
    supported: z.boolean(),
    categories: z.array(z.string()).optional(),
    max_rounds: z.number().optional(),
    default_validity_minutes: z.number().optional(),
  }),
});

export const negotiationManifestQuery = queryOptions({
  queryKey: ['oap', 'manifest'],
  queryFn: ({ signal }) => getJson('/oap/manifest', Manifest, { signal }).then((m) => m.negotiation),
  staleTime: Infinity,
});
