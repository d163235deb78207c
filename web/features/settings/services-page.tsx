// /settings/services: the relays and negotiation services the console talks to. The
// built-in ones come first and stay; facilitators add and remove external ones, observers read.
// Removing asks first (decisions-web.md §28): it stops the bridge for every operator.
import { When } from '@web/components/when';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Notice } from '@web/components/ui/notice';
import { TextField } from '@web/components/ui/text-field';
import { addService, removeService, servicesQuery, type ServiceView } from '@web/lib/api/external-services';
import { canAct, useSession } from '@web/lib/identity/use-session';
import { SourceBadge } from '@web/components/ui/source-badge';
import { errorInWords, serviceProblemInWords } from '@web/lib/api/error-words';
import { WatchList } from './watch-list';
import { WebhooksSection } from './webhooks-section';

const STATE_WORDS = { up: 'Up', down: 'Down', connecting: 'Connecting…' } as const;

function StatusCell({ service }: { service: ServiceView }) {
  const { state, lastError, nextRetryAt } = service.status;
  const tone =
    state === 'up'
      ? 'text-emerald-700 dark:text-emerald-300'
      : state === 'down'
        ? 'text-rose-700 dark:text-rose-300'
        : 'text-slate-600 dark:text-slate-400';
  return (
    <span className={`text-sm ${tone}`} data-testid="service-status">
      {STATE_WORDS[state]}
      {state === 'down' && lastError ? (
        <span className="block text-xs text-slate-600 dark:text-slate-400" title={lastError}>
          {serviceProblemInWords(lastError)}
          {nextRetryAt ? (
            <>
              {' · retrying '}
              <When at={nextRetryAt} form="relative" />
            </>
          ) : null}
        </span>
      ) : null}
    </span>
  );
}

export function ServicesPage() {
  const session = useSession();
  const facilitator = canAct(session);
  const services = useQuery(servicesQuery);
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', url: '', kind: 'relay' as 'relay' | 'negotiation', readOnly: false });
  const add = useMutation({
    mutationFn: addService,
    onSuccess: () => {
      setForm({ name: '', url: '', kind: 'relay', readOnly: false });
      void queryClient.invalidateQueries({ queryKey: ['services'] });
    },
  });
  const [removing, setRemoving] = useState<ServiceView | null>(null);
  const remove = useMutation({
    mutationFn: removeService,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['services'] }),
    onSettled: () => setRemoving(null),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(form);
  };

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-semibold tracking-tight">Relays and negotiation services</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        The console bridges these services: what you sign is forwarded unchanged, and their threads show beside the
        built-in ones, each verified here before it is trusted.
      </p>
      <div className="mt-5">
        {services.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading services…
          </p>
        ) : services.isError ? (
          <Notice tone="error" title="Cannot list services">
            {errorInWords(services.error)}
          </Notice>
        ) : (
          <table
            aria-label="Services"
            // On a phone each row is a card: the cells flow and wrap instead of widening the page.
            className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm max-sm:block dark:border-slate-800 dark:bg-slate-900"
          >
            <thead className="bg-slate-50 text-xs text-slate-600 max-sm:sr-only dark:bg-slate-800/60 dark:text-slate-400">
              <tr>
                <th className="px-4 py-2 font-medium">Name</th>
                <th className="px-4 py-2 font-medium">Kind</th>
                <th className="px-4 py-2 font-medium">Address</th>
                <th className="px-4 py-2 font-medium">Status</th>
                <th className="px-4 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 max-sm:block dark:divide-slate-800">
              {services.data.services.map((s) => (
                <tr
                  key={s.id}
                  data-testid="service-row"
                  className="max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3 [&>td]:max-sm:p-0"
                >
                  <td className="px-4 py-2">
                    <SourceBadge name={s.builtin ? 'built-in' : s.name} />
                    {s.builtin ? <span className="ml-2">{s.name}</span> : null}
                    {s.readOnly ? <span className="ml-2 text-xs text-slate-500">read-only</span> : null}
                    {s.origin === 'env' ? (
                      <span className="ml-2 text-xs text-slate-500">from EXTERNAL_SERVICES</span>
                    ) : null}
                  </td>
                  <td className="px-4 py-2">{s.kind === 'relay' ? 'Agora relay' : 'RFC 0002 negotiation'}</td>
                  <td
                    className="max-w-56 truncate px-4 py-2 font-mono text-xs max-sm:w-full max-sm:max-w-full"
                    title={s.baseUrl}
                  >
                    {s.baseUrl}
                  </td>
                  <td className="px-4 py-2">
                    <StatusCell service={s} />
                  </td>
                  <td className="px-4 py-2 text-right">
                    {facilitator && s.removable ? (
                      <Button size="sm" onClick={() => setRemoving(s)} aria-label={`Remove ${s.name}…`}>
                        Remove…
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {facilitator ? (
        <form
          onSubmit={submit}
          aria-label="Add a service"
          className="mt-6 grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 className="text-lg font-semibold sm:col-span-2">Add a service</h2>
          <TextField
            label="Name"
            required
            maxLength={80}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
          <TextField
            label="Base URL"
            required
            type="url"
            placeholder="https://relay.example.org"
            value={form.url}
            onChange={(e) => setForm({ ...form, url: e.target.value })}
          />
          <label className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Kind
            <select
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.target.value as 'relay' | 'negotiation' })}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
            >
              <option value="relay">Agora relay</option>
              <option value="negotiation">RFC 0002 negotiation service</option>
            </select>
          </label>
          <label className="flex items-center gap-2 self-end pb-1.5 text-sm">
            <input
              type="checkbox"
              checked={form.readOnly}
              onChange={(e) => setForm({ ...form, readOnly: e.target.checked })}
            />
            Read-only (show its threads, never send to it)
          </label>
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" busy={add.isPending}>
              Add service
            </Button>
            {add.isError ? (
              <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
                {errorInWords(add.error)}
              </p>
            ) : null}
          </div>
        </form>
      ) : (
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          Observers see the services; facilitators add and remove them.
        </p>
      )}
      {remove.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {errorInWords(remove.error)}
        </p>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.name ?? 'this service'}?`}
        confirmLabel="Remove the service"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id)}
      >
        <p>
          The console stops bridging <span className="break-all font-mono text-xs">{removing?.baseUrl}</span> for every
          operator: nothing more is sent to it or read from it. To use it again, add it anew.
        </p>
      </ConfirmDialog>
      <WatchList />
      <WebhooksSection />
    </div>
  );
}
