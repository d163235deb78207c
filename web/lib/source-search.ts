// `?source=<serviceId>` on a thread or negotiation address: which external service it lives on.
// Absent means the built-in relay or negotiation service, so existing links keep
// working and one route serves both (decisions-web.md §15).
export interface SourceSearch {
  readonly source?: string;
}

/** The ids the server gives services: `svc_…` from the console, `env-…` from EXTERNAL_SERVICES. */
const SERVICE_ID = /^[A-Za-z0-9_-]{1,120}$/;
const BUILTIN = new Set(['builtin-relay', 'builtin-negotiation']);

export function parseSourceSearch(search: Record<string, unknown>): SourceSearch {
  const source = search['source'];
  return typeof source === 'string' && SERVICE_ID.test(source) && !BUILTIN.has(source) ? { source } : {};
}
