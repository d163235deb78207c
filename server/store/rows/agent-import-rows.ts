// Imported A2A agent cards as both engines read them: the card is kept as text on both, so both
// answer the same bytes.
import type { ImportedAgentCard } from '@shared/contract/directory-imports';
import type { ImportedAgent } from '../agent-import-store';

export interface ImportRow {
  id: string;
  url: string;
  name: string;
  card: string;
  imported_by: string;
  imported_at: number;
  last_fetched_at: number;
}

export const toImport = (r: ImportRow): ImportedAgent => ({
  id: r.id,
  url: r.url,
  name: r.name,
  card: JSON.parse(r.card) as ImportedAgentCard,
  importedBy: r.imported_by,
  importedAt: r.imported_at,
  lastFetchedAt: r.last_fetched_at,
});
