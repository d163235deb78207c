// The Webhooks section of the settings: endpoints that receive inbox events, each with its
// delivery log (state, attempts, next try, last error). Facilitators add one (URL, events,
// kinds) and see its signing secret once, send a test, and delete with a confirmation;
// observers read, with URLs cut to their origin by the server.
import { When } from '@web/components/when';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { INBOX_KINDS, type InboxKind } from '@shared/contract/inbox';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENTS, type WebhookEventType } from '@shared/contract/webhooks';
import { Button } from '@web/components/ui/button';
import { CopyButton } from '@web/components/ui/copy-button';
import { Dialog } from '@web/components/ui/dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import {
  addWebhook,
  removeWebhook,
  sendTestWebhook,
  webhooksQuery,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@web/lib/api/webhooks';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { errorInWords } from '@web/lib/api/error-words';

const KIND_WORDS: Record<InboxKind, string> = {
  review: 'Reviews',
  cosign: 'Co-signatures',
  slot: 'Scheduling slots',
  question: 'Questions',
  grant: 'Expiring mic grants',
  rejects: 'Repeated rejects',
  service: 'Services down',
};
const EVENT_WORDS: Record<WebhookEventType, string> = {
  'inbox.item.added': 'Item added',
  'inbox.item.removed': 'Item settled or gone',
};
const STATE_TONE = {
  pending: 'text-amber-700 dark:text-amber-300',
  delivered: 'text-emerald-700 dark:text-emerald-300',
  failed: 'text-rose-700 dark:text-rose-300',
} as const;

const time = (at: number | null) => (at === null ? '—' : <When at={at} />);

function DeliveryLog({ deliveries }: { deliveries: readonly WebhookDeliveryView[] }) {
  if (deliveries.length === 0)
    return <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">Nothing delivered yet.</p>;
  return (
    <table aria-label="Delivery log" className="w-full text-left text-sm">
      <thead className="text-xs text-slate-600 dark:text-slate-400">
        <tr>
          <th className="px-4 py-1.5 font-medium">Event</th>
          <th className="px-4 py-1.5 font-medium">Status</th>
          <th className="px-4 py-1.5 font-medium">Attempts</th>
          <th className="px-4 py-1.5 font-medium">Next try</th>
          <th className="px-4 py-1.5 font-medium">Last error</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {deliveries.map((d) => (
          <tr key={d.id} data-testid="delivery-row">
            <td className="px-4 py-1.5">
              <span className="font-mono text-xs">{d.eventType}</span>
              <span className="block text-xs text-slate-500">{time(d.createdAt)}</span>
            </td>
            <td className={`px-4 py-1.5 ${STATE_TONE[d.state]}`} data-testid="delivery-state">
              {d.state === 'delivered' ? 'Delivered' : d.state === 'failed' ? 'Failed' : 'Pending'}
              {d.lastStatus !== null ? <span className="ml-1 text-xs">({d.lastStatus})</span> : null}
            </td>
            <td className="px-4 py-1.5 tabular-nums">{d.attempts}</td>
            <td className="px-4 py-1.5">{time(d.nextAttemptAt)}</td>
            <td
              className="max-w-64 truncate px-4 py-1.5 text-xs text-slate-600 dark:text-slate-400"
              title={d.lastError ?? ''}
            >
              {d.lastError ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EndpointCard({ endpoint, facilitator }: { endpoint: WebhookEndpointView; facilitator: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const test = useMutation({ mutationFn: sendTestWebhook, onSuccess: refresh });
  const remove = useMutation({
    mutationFn: removeWebhook,
    onSuccess: () => {
      setConfirming(false);
      refresh();
    },
  });
  return (
    <li
      data-testid="webhook-endpoint"
      className="overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start gap-3 px-4 py-3">
        <div className="min-w-0 flex-1">
          <p className="truncate font-mono text-sm" title={endpoint.url}>
            {endpoint.url}
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {endpoint.events.map((e) => EVENT_WORDS[e as WebhookEventType] ?? e).join(', ')} ·{' '}
            {endpoint.kinds.map((k) => KIND_WORDS[k as InboxKind] ?? k).join(', ')}
            {endpoint.origin === 'env' ? <span className="ml-2">· from WEBHOOKS</span> : null}
            {endpoint.disabled ? <span className="ml-2">· disabled</span> : null}
          </p>
        </div>
        {facilitator ? (
          <div className="flex gap-2">
            <Button size="sm" busy={test.isPending} onClick={() => test.mutate(endpoint.id)}>
              Send test
            </Button>
            {endpoint.removable ? (
              <Button size="sm" onClick={() => setConfirming(true)} aria-label={`Delete webhook ${endpoint.url}`}>
                Delete
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {test.isError ? (
        <p role="alert" className="px-4 pb-2 text-sm text-rose-700 dark:text-rose-300">
          {test.error.message}
        </p>
      ) : null}
      <div className="border-t border-slate-200 dark:border-slate-800">
        <DeliveryLog deliveries={endpoint.deliveries} />
      </div>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this webhook?"
        description="Its pending deliveries are dropped and its secret stops working. This cannot be undone."
      >
        <p className="truncate font-mono text-xs">{endpoint.url}</p>
        {remove.isError ? (
          <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
            {errorInWords(remove.error)}
          </p>
        ) : null}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Keep it</Button>
          <Button variant="primary" busy={remove.isPending} onClick={() => remove.mutate(endpoint.id)}>
            Delete webhook
          </Button>
        </div>
      </Dialog>
    </li>
  );
}

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Notice
      tone="success"
      title="Webhook added. Copy its signing secret now: it is shown only this once."
      action={
        <Button size="sm" onClick={onDone}>
          I have copied it
        </Button>
      }
    >
      <div className="flex items-center gap-2">
        <code
          data-testid="webhook-secret"
          className="min-w-0 flex-1 truncate rounded bg-white/70 px-2 py-1 font-mono text-xs dark:bg-black/30"
        >
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <p className="mt-1 text-xs">
        Receivers check <code>Switchboard-Signature</code>: HMAC-SHA256 of <code>{'<t>.<delivery id>.<body>'}</code>{' '}
        with this secret.
      </p>
    </Notice>
  );
}

function AddWebhook() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENTS]);
  const [kinds, setKinds] = useState<InboxKind[]>(['review', 'cosign']);
  const [secret, setSecret] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: addWebhook,
    onSuccess: (created) => {
      setSecret(created.secret);
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate({ url, events, kinds });
  };
  return (
    <div className="mt-4 space-y-3">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(undefined)} /> : null}
      <form
        onSubmit={submit}
        aria-label="Add a webhook"
        className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      >
        <h3 className="text-base font-semibold">Add a webhook</h3>
        <TextField
          label="Endpoint URL"
          required
          type="url"
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          placeholder="https://hooks.example.org/switchboard"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Events</legend>
          <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={events.includes(e)}
                  onChange={(ev) => setEvents(toggle(events, e, ev.target.checked))}
                />
                {EVENT_WORDS[e]}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Inbox kinds</legend>
          <div className="mt-1 grid gap-x-5 gap-y-1 sm:grid-cols-3">
            {INBOX_KINDS.map((k) => (
              <label key={k} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={kinds.includes(k)}
                  onChange={(ev) => setKinds(toggle(kinds, k, ev.target.checked))}
                />
                {KIND_WORDS[k]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <Button
            type="submit"
            variant="primary"
            busy={add.isPending}
            disabled={events.length === 0 || kinds.length === 0}
          >
            Add webhook
          </Button>
          {events.length === 0 || kinds.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Choose at least one event and one kind.</p>
          ) : null}
          {add.isError ? (
            <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
              {errorInWords(add.error)}
            </p>
          ) : null}
        </div>
      </form>
    </div>
  );
}

export function WebhooksSection() {
  const session = useSession();
  const facilitator = canAct(session);
  const webhooks = useQuery(webhooksQuery);
  return (
    <section aria-labelledby="webhooks-heading" className="mt-10">
      <h2 id="webhooks-heading" className="text-lg font-semibold">
        Webhooks
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Inbox events are POSTed to these endpoints, signed with each one&apos;s secret, and retried for about a day
        until the endpoint answers 2xx.
      </p>
      <div className="mt-4">
        {webhooks.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading webhooks…
          </p>
        ) : webhooks.isError ? (
          <Notice tone="error" title="Cannot list webhooks">
            {errorInWords(webhooks.error)}
          </Notice>
        ) : webhooks.data.endpoints.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No webhooks yet.</p>
        ) : (
          <ul className="space-y-4">
            {webhooks.data.endpoints.map((e) => (
              <EndpointCard key={e.id} endpoint={e} facilitator={facilitator} />
            ))}
          </ul>
        )}
      </div>
      {facilitator ? (
        <AddWebhook />
      ) : (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          Observers see the webhooks; facilitators add, test and delete them.
        </p>
      )}
    </section>
  );
}
