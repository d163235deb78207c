// GET /oap/manifest: the Tool's RFC 0002 §3.6 declaration (categories, limits) for the open form.
import { queryOptions } from '@tanstack/react-query';
import { ManifestDeclaration } from '@shared/negotiation/manifest';
import { getJson } from './http';

export const negotiationManifestQuery = queryOptions({
  queryKey: ['oap', 'manifest'],
  queryFn: ({ signal }) => getJson('/oap/manifest', ManifestDeclaration, { signal }).then((m) => m.negotiation),
  staleTime: Infinity,
});
