import { CopyButton } from '@web/components/ui/copy-button';
import { Dialog } from '@web/components/ui/dialog';
import type { TimelineEntry } from '@web/lib/mqtt/timeline-merge';

/** A link that opens the room on this message (stored messages only: the link is the cursor). */
function permalink(entry: TimelineEntry): string | null {
  const roomId = /^rooms\/([^/]+)\//.exec(entry.topic)?.[1];
  if (entry.cursor === null || !roomId) return null;
  const url = new URL(`/rooms/${encodeURIComponent(roomId)}`, location.origin);
  url.searchParams.set('m', String(entry.cursor));
  if (entry.topicKind === 'control') url.searchParams.set('topic', 'all');
  return url.toString();
}

/** The exact envelope as received, with its topic and receive time (UX: raw message inspector). */
export function InspectorDialog({ entry, onClose }: { entry: TimelineEntry | null; onClose: () => void }) {
  const pretty = entry ? (entry.envelope === null ? entry.raw : JSON.stringify(entry.envelope, null, 2)) : '';
  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Raw envelope"
      size="wide"
    >
      {entry ? (
        <div className="space-y-3 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-slate-500">Topic</dt>
            <dd className="break-all font-mono text-xs">{entry.topic}</dd>
            <dt className="text-slate-500">Received</dt>
            <dd className="font-mono text-xs">
              {new Date(entry.receivedAt).toISOString()}{' '}
              {entry.cursor === null ? '(live, this browser’s clock)' : `(server, cursor ${entry.cursor})`}
            </dd>
            <dt className="text-slate-500">Message id</dt>
            <dd className="break-all font-mono text-xs">{entry.messageId ?? '—'}</dd>
          </dl>
          <div className="flex justify-end gap-2">
            {permalink(entry) ? <CopyButton text={permalink(entry)!} label="Copy link" /> : null}
            <CopyButton text={entry.raw} label="Copy JSON" />
          </div>
          <pre
            data-testid="inspector-json"
            className="max-h-80 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs leading-5 text-slate-100"
          >
            {pretty}
          </pre>
        </div>
      ) : null}
    </Dialog>
  );
}
