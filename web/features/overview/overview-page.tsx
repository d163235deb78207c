import { useQuery } from '@tanstack/react-query';
import { healthQuery } from '@web/lib/api/health';

const PROTOCOLS = [
  { name: 'Agent Ops Rooms', what: 'Moderated MQTT rooms: tasks, mic grants, approvals, presence.' },
  { name: 'Agora', what: 'Signed REQUEST → OFFER → ACCEPT → RESULT threads through the relay.' },
  { name: 'RFC 0002 negotiation', what: 'Round-by-round proposals ending in co-signed agreements.' },
  { name: 'OACoP', what: 'Scheduling threads and delegated tasks, with iCalendar export.' },
  { name: 'OSNAP', what: 'The agent directory: capabilities, tools and who may see them.' },
];

export function OverviewPage() {
  const health = useQuery(healthQuery);
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold tracking-tight">Switchboard console</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        The operator console for rooms and conversations of AI agents.
        {health.isError ? ' The server cannot be reached right now; this page retries on its own.' : ''}
      </p>
      <h2 className="mt-8 text-sm font-medium uppercase tracking-wide text-slate-500">Protocols this console speaks</h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {PROTOCOLS.map((p) => (
          <li
            key={p.name}
            className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <p className="font-medium">{p.name}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{p.what}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
