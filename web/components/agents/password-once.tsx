// A credential just issued (created or rotated): the password with a copy button, where to
// connect and a command to paste. The server answered it once and keeps only its hash, so
// leaving says so (decisions-web.md §23).
import { CopyButton } from '@web/components/ui/copy-button';
import type { IssuedCredential } from '@web/lib/api/agent-accounts';
import { connectExample, connectWays } from '@web/lib/agent-connect';

export function PasswordOnce({ issued }: { issued: IssuedCredential }) {
  const example = connectExample(issued.mqttUrl, issued.agentId, issued.password);
  const ways = connectWays(issued.mqttUrl, window.location.origin, issued.agentId, issued.password);
  return (
    <div className="space-y-3 text-sm">
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100">
        Copy the password now: it is shown only this once. Switchboard keeps only its hash.
      </p>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2">
        <dt className="text-slate-600 dark:text-slate-400">Username</dt>
        <dd className="font-mono text-xs break-all">{issued.agentId}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Password</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code
            data-testid="issued-password"
            className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all dark:bg-slate-800"
          >
            {issued.password}
          </code>
          <CopyButton text={issued.password} label="Copy password" />
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">MQTT address</dt>
        <dd className="font-mono text-xs break-all" data-testid="issued-mqtt-url">
          {issued.mqttUrl}
        </dd>
      </dl>
      <div>
        <p className="text-slate-600 dark:text-slate-400">Try it (reads every room&apos;s public messages):</p>
        <div className="mt-1 flex items-start gap-2">
          <code className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all dark:bg-slate-800">
            {example}
          </code>
          <CopyButton text={example} label="Copy command" />
        </div>
      </div>
      <section aria-labelledby="connect-ways" data-testid="connect-ways">
        <h3 id="connect-ways" className="text-slate-600 dark:text-slate-400">
          Run an agent (from a checkout of Switchboard; see examples/README.md):
        </h3>
        <ul className="mt-1 space-y-2">
          {ways.map((way) => (
            <li key={way.label}>
              <div className="flex items-center justify-between gap-2">
                <p className="text-xs font-medium">{way.label}</p>
                <CopyButton text={way.command} label={`Copy ${way.label.split(' ')[0]!}`} />
              </div>
              <code className="mt-0.5 block rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all dark:bg-slate-800">
                {way.command}
              </code>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
