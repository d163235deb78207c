// The directory's OACoP agents: their manifest carries `oacop: { kind, timeZone }` (the demo's
// calendar agents and resources). Anything else in the directory is not schedulable. Their names,
// like everyone's, come from the naming service (web/lib/names/, decisions-web.md §29).
import type { DirectoryEntry } from '@web/lib/api/agora-agents';

export interface OacopAgent {
  readonly did: string;
  readonly name: string;
  readonly kind: 'person' | 'resource';
  readonly timeZone: string;
}

export function oacopAgents(entries: readonly DirectoryEntry[]): OacopAgent[] {
  const out: OacopAgent[] = [];
  for (const e of entries) {
    const o = (e.manifest as { oacop?: { kind?: unknown; timeZone?: unknown } } | undefined)?.oacop;
    if (!o || (o.kind !== 'person' && o.kind !== 'resource') || typeof o.timeZone !== 'string') continue;
    out.push({ did: e.agent_id, name: e.agent_name ?? e.agent_id, kind: o.kind, timeZone: o.timeZone });
  }
  return out;
}
