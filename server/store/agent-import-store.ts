// Outside A2A agents imported into the directory by their Agent Card URL (decisions-mcp.md §9–§11):
// one row per URL, holding the card as it was last fetched and checked (ImportedAgentCard). Kept
// apart from store.ts so each engine implements it on its own (sqlite-agent-import-store.ts,
// pg-agent-import-store.ts), both held to agent-import-store-suite.ts.
import type { ImportedAgentCard } from '@shared/contract/directory-imports';

export interface ImportedAgent {
  readonly id: string;
  /** The card's URL, normalised; unique. */
  readonly url: string;
  /** The card's name, kept beside it for lists. */
  readonly name: string;
  readonly card: ImportedAgentCard;
  /** The facilitator's DID who first imported it. */
  readonly importedBy: string;
  readonly importedAt: number;
  /** When the card was last fetched (the first import, or a refresh). */
  readonly lastFetchedAt: number;
}

export interface AgentImportStore {
  /** Oldest import first. */
  listImports(): Promise<ImportedAgent[]>;
  getImport(id: string): Promise<ImportedAgent | undefined>;
  countImports(): Promise<number>;
  /**
   * Inserts `agent`, or, when its URL is imported already, replaces that row's name, card and
   * lastFetchedAt and keeps its id, importedBy and importedAt (`refreshed`). One statement, so two
   * imports of one URL at once leave one row.
   */
  putImport(agent: ImportedAgent): Promise<{ readonly agent: ImportedAgent; readonly refreshed: boolean }>;
  /** Removes the row and answers it; undefined when unknown. */
  removeImport(id: string): Promise<ImportedAgent | undefined>;
}
