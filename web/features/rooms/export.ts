// Export of a room's history and audit log, as JSON and CSV. Every page is fetched in order and
// the file is assembled from chunks into a Blob, so a long history is never one giant string.
import { fetchAuditPage, type AuditEntry } from '@web/lib/api/rooms-audit';
import { fetchMessages, type StoredMessage } from '@web/lib/api/rooms-messages';
import { csvChunks, type CsvColumn } from '@web/lib/export/csv';
import { auditInWords } from './audit-words';

export type ExportFormat = 'json' | 'csv';

const PAGE = 500;
const iso = (ms: number) => new Date(ms).toISOString();

export async function fetchAllMessages(roomId: string, signal?: AbortSignal): Promise<StoredMessage[]> {
  const all: StoredMessage[] = [];
  let after = 0;
  for (;;) {
    const page = await fetchMessages(roomId, { after, limit: PAGE }, signal);
    all.push(...page.messages);
    const last = page.messages.at(-1);
    if (!page.hasMore || !last) return all;
    after = last.cursor;
  }
}

export async function fetchAllAudit(roomId: string, signal?: AbortSignal): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  let before: number | undefined;
  for (;;) {
    // The activity log's largest page (shared/contract/activity.ts).
    const page = await fetchAuditPage(roomId, { limit: 200, ...(before !== undefined ? { before } : {}) }, signal);
    all.push(...page);
    if (page.length < 200) return all;
    before = page.at(-1)!.id;
  }
}

export const MESSAGE_COLUMNS: readonly CsvColumn<StoredMessage>[] = [
  { header: 'cursor', value: (m) => m.cursor },
  { header: 'received_at', value: (m) => iso(m.receivedAt) },
  { header: 'topic', value: (m) => m.topic },
  { header: 'topic_kind', value: (m) => m.topicKind },
  { header: 'message_id', value: (m) => m.messageId },
  { header: 'type', value: (m) => m.type },
  { header: 'from', value: (m) => m.fromId },
  { header: 'raw', value: (m) => m.raw },
];

/** The audit's columns; `what` names tasks by their goals as the screen does (decisions-web.md §33). */
export const auditColumns = (taskWords?: (taskId: string) => string | undefined): readonly CsvColumn<AuditEntry>[] => [
  { header: 'id', value: (e) => e.id },
  { header: 'at', value: (e) => iso(e.at) },
  { header: 'actor_did', value: (e) => e.actorDid },
  { header: 'action', value: (e) => e.action },
  { header: 'what', value: (e) => auditInWords(e, taskWords) },
  { header: 'message_id', value: (e) => e.messageId },
  { header: 'details', value: (e) => JSON.stringify(e.details) },
];

/** JSON as an array, one element per chunk. */
function* jsonChunks<T>(rows: readonly T[]): Generator<string> {
  yield '[\n';
  for (let i = 0; i < rows.length; i++) yield (i ? ',\n' : '') + JSON.stringify(rows[i]);
  yield '\n]\n';
}

export function toBlob<T>(rows: readonly T[], format: ExportFormat, columns: readonly CsvColumn<T>[]): Blob {
  return format === 'json'
    ? new Blob([...jsonChunks(rows)], { type: 'application/json' })
    : new Blob([...csvChunks(columns, rows)], { type: 'text/csv;charset=utf-8' });
}

export const exportFileName = (roomId: string, what: 'history' | 'audit', format: ExportFormat, at: Date) =>
  `switchboard-${roomId.replace(/[^\w.-]+/g, '_')}-${what}-${at.toISOString().slice(0, 19).replaceAll(':', '')}Z.${format}`;

export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the Blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
