// One list of negotiations from the built-in service and the external ones: newest
// activity first, whatever the source; the state filter applies to both. An external negotiation
// the console could not read (service down, odd answer) has no state: it is listed last, and
// only while no state filter is set, so it never passes for a state it may not be in.
import type { ExternalNegotiation } from '@web/lib/api/external-negotiations';
import type { ExternalSource } from '@web/lib/api/external-services';
import type { NegotiationStateName, NegotiationSummary } from '@web/lib/api/negotiations-list';

export type NegotiationRow =
  | {
      readonly kind: 'read';
      readonly key: string;
      readonly summary: NegotiationSummary;
      readonly source: ExternalSource | null;
      readonly verified: boolean | null;
      readonly reason: string | null;
    }
  | {
      readonly kind: 'unread';
      readonly key: string;
      readonly id: string;
      readonly source: ExternalSource;
      readonly reason: string | null;
    };

export function mergeNegotiations(
  builtin: readonly NegotiationSummary[],
  external: readonly ExternalNegotiation[],
  state: NegotiationStateName | null,
): NegotiationRow[] {
  const read: Extract<NegotiationRow, { kind: 'read' }>[] = builtin.map((summary) => ({
    kind: 'read',
    key: `built-in ${summary.id}`,
    summary,
    source: null,
    verified: null,
    reason: null,
  }));
  const unread: Extract<NegotiationRow, { kind: 'unread' }>[] = [];
  for (const e of external) {
    const key = `${e.source.id} ${e.id}`;
    if (e.negotiation === null) {
      if (state === null) unread.push({ kind: 'unread', key, id: e.id, source: e.source, reason: e.reason });
    } else if (state === null || e.negotiation.state === state)
      read.push({
        kind: 'read',
        key,
        summary: e.negotiation,
        source: e.source,
        verified: e.verified,
        reason: e.reason,
      });
  }
  // ISO-8601 UTC strings of one format order as their instants; Date.parse keeps it explicit.
  read.sort((x, y) => Date.parse(y.summary.last_activity) - Date.parse(x.summary.last_activity));
  return [...read, ...unread];
}
