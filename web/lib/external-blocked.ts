// Why the console will not send to an external service now, in words: a read-only
// service is never written to (the server refuses with SERVICE_READ_ONLY), and one the bridge
// sees down would only answer SERVICE_UNAVAILABLE. Shared by the thread and negotiation screens.
import type { ExternalSource } from '@web/lib/api/external-services';

/** Null when sending may be tried. `what`: what the screen shows of the service. */
export function sendBlockedReason(
  source: Pick<ExternalSource, 'name' | 'readOnly' | 'status'>,
  what: 'threads' | 'negotiations',
): string | null {
  if (source.readOnly) return `${source.name} is read-only here: the console shows its ${what} and never sends to it.`;
  if (source.status.state === 'down')
    return `${source.name} is down${source.status.lastError ? ` (${source.status.lastError})` : ''}: nothing can be sent until it is back. The console keeps retrying.`;
  return null;
}
