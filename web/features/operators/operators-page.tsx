// /settings/operators: the people who may sign in (decisions-server.md §84). Facilitators invite
// by a one-time link (a role, a lifetime, the link shown once with a copy button), see the links
// not yet used and withdraw one, change an operator's role and remove one, each after a
// confirmation that says what changes (decisions-web.md §49); each is audited and shows in the
// activity log. Observers are told the screen is for facilitators.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { OperatorRole } from '@shared/contract/auth';
import { INVITE_HOURS } from '@shared/contract/operators';
import { unnamedOperator } from '@shared/contract/operator-name';
import { Name } from '@web/components/name';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { CopyButton } from '@web/components/ui/copy-button';
import { Notice } from '@web/components/ui/notice';
import { When } from '@web/components/when';
import { errorInWords } from '@web/lib/api/error-words';
import {
  createInvite,
  inviteLink,
  OPERATORS_KEY,
  operatorsQuery,
  removeOperator,
  revokeInvite,
  setOperatorRole,
  type InviteAnswer,
  type OperatorEntry,
} from '@web/lib/api/operators';
import { canAct, useSession } from '@web/lib/identity/use-session';

const LIFETIMES = [
  { hours: 1, words: '1 hour' },
  { hours: INVITE_HOURS.default, words: '1 day' },
  { hours: 72, words: '3 days' },
  { hours: INVITE_HOURS.max, words: '1 week' },
] as const;

const FIELD =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950';
const CARD = 'rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';

const operatorWords = (o: { did: string; name: string | null }) => o.name ?? unnamedOperator(o.did);

const roleWords = (role: OperatorRole) => (role === 'observer' ? 'an observer' : 'a facilitator');

/** What a new role changes, for its confirmation: it applies at once, to open sessions too. */
function roleChangeWords(to: OperatorRole, name: string, self: boolean): string {
  const who = self ? 'You' : name;
  return to === 'observer'
    ? `${who} will only read from now on: no acting in rooms, no invitations. A facilitator can give the role back.`
    : `${who} will act in rooms and invite or remove colleagues from now on.`;
}

function InviteForm() {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<OperatorRole>('facilitator');
  const [hours, setHours] = useState<number>(INVITE_HOURS.default);
  const [made, setMade] = useState<InviteAnswer | null>(null);
  const invite = useMutation({
    mutationFn: () => createInvite({ role, expiresInHours: hours }),
    onSuccess: (answer) => {
      setMade(answer);
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    },
  });
  const link = made ? inviteLink(window.location.origin, made.token) : null;
  return (
    <section aria-labelledby="invite-heading" className={CARD}>
      <h2 id="invite-heading" className="text-base font-semibold">
        Invite a colleague
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        A one-time link: whoever opens it first makes a key in their browser and joins with this role.
      </p>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <label className="text-sm">
          Role
          <select className={FIELD} value={role} onChange={(e) => setRole(e.target.value as OperatorRole)}>
            <option value="facilitator">Facilitator (acts in rooms, invites)</option>
            <option value="observer">Observer (reads only)</option>
          </select>
        </label>
        <label className="text-sm">
          Link valid for
          <select className={FIELD} value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {LIFETIMES.map((l) => (
              <option key={l.hours} value={l.hours}>
                {l.words}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="primary" busy={invite.isPending}>
          Make an invitation link
        </Button>
      </form>
      {invite.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {errorInWords(invite.error)}
        </p>
      ) : null}
      {made && link ? (
        <div className="mt-4" data-testid="invite-link-once">
          <Notice tone="success" title={`A link for a new ${made.role}`}>
            <p>
              Send it to your colleague now: it is shown only this once, works once, and expires{' '}
              <When at={made.expiresAt} />.
            </p>
            <div className="mt-2 flex min-w-0 items-center gap-2">
              <code
                data-testid="invite-link"
                className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1 font-mono text-xs [overflow-wrap:anywhere] dark:bg-slate-800"
              >
                {link}
              </code>
              <CopyButton text={link} label="Copy link" />
            </div>
            <Button size="sm" className="mt-2" onClick={() => setMade(null)}>
              Done, hide it
            </Button>
          </Notice>
        </div>
      ) : null}
    </section>
  );
}

function OperatorRow({ operator, me, facilitators }: { operator: OperatorEntry; me: string; facilitators: number }) {
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const [newRole, setNewRole] = useState<OperatorRole | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
    void queryClient.invalidateQueries({ queryKey: ['activity'] });
  };
  const role = useMutation({
    mutationFn: (r: OperatorRole) => setOperatorRole(operator.did, r),
    onSuccess: () => setNewRole(null),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => removeOperator(operator.did),
    onSuccess: () => setRemoving(false),
    onSettled: refresh,
  });
  const last = operator.role === 'facilitator' && facilitators <= 1;
  const name = operatorWords(operator);
  return (
    <tr data-testid="operator-row" data-did={operator.did} className="align-top max-md:block max-md:py-2">
      <th scope="row" className="px-4 py-2 text-left font-medium max-md:block max-md:py-0.5">
        <Name id={operator.did} label={name} me={me} />
      </th>
      <td className="px-2 py-2 max-md:block max-md:px-4 max-md:py-0.5">
        <label className="sr-only" htmlFor={`role-${operator.did}`}>
          Role of {name}
        </label>
        <select
          id={`role-${operator.did}`}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950"
          value={operator.role}
          disabled={role.isPending || last}
          title={last ? 'The last facilitator keeps the role: make another operator a facilitator first.' : undefined}
          onChange={(e) => {
            role.reset();
            setNewRole(e.target.value as OperatorRole);
          }}
        >
          <option value="facilitator">Facilitator</option>
          <option value="observer">Observer</option>
        </select>
        <ConfirmDialog
          open={newRole !== null}
          onOpenChange={(open) => !open && setNewRole(null)}
          title={newRole ? `Make ${name} ${roleWords(newRole)}?` : ''}
          confirmLabel={newRole ? `Make ${name} ${roleWords(newRole)}` : ''}
          tone="primary"
          busy={role.isPending}
          onConfirm={() => newRole && role.mutate(newRole)}
        >
          <p>{newRole ? roleChangeWords(newRole, name, operator.did === me) : null}</p>
          {role.isError ? (
            <p role="alert" className="mt-2 text-rose-700 dark:text-rose-300">
              {errorInWords(role.error)}
            </p>
          ) : null}
        </ConfirmDialog>
      </td>
      <td className="whitespace-nowrap px-2 py-2 text-sm text-slate-600 max-md:block max-md:px-4 max-md:py-0.5 dark:text-slate-400">
        <When at={operator.createdAt} form="relative" prefix="joined " />
      </td>
      <td className="px-4 py-2 text-right max-md:block max-md:text-left">
        <Button size="sm" disabled={last} onClick={() => setRemoving(true)} aria-label={`Remove ${name}`}>
          Remove
        </Button>
        <ConfirmDialog
          open={removing}
          onOpenChange={setRemoving}
          title={`Remove ${name}?`}
          confirmLabel="Remove the operator"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        >
          <p>
            {operator.did === me
              ? 'You will be signed out at once and need a new invitation to come back.'
              : `${name} is signed out at once; their key no longer opens this console. A new invitation brings them back.`}
          </p>
          {remove.isError ? (
            <p role="alert" className="mt-2 text-rose-700 dark:text-rose-300">
              {errorInWords(remove.error)}
            </p>
          ) : null}
        </ConfirmDialog>
      </td>
    </tr>
  );
}

export function OperatorsPage() {
  const session = useSession();
  const facilitator = canAct(session);
  const queryClient = useQueryClient();
  const list = useQuery({ ...operatorsQuery, enabled: facilitator });
  const withdraw = useMutation({
    mutationFn: revokeInvite,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    },
  });
  if (!facilitator)
    return (
      <div className="mx-auto max-w-3xl">
        <h1 className="text-2xl font-semibold tracking-tight">Operators</h1>
        <div className="mt-4">
          <Notice tone="info" title="Operators are managed by facilitators">
            Ask a facilitator to invite a colleague or to change a role.
          </Notice>
        </div>
      </div>
    );
  const data = list.data;
  const facilitators = data?.operators.filter((o) => o.role === 'facilitator').length ?? 0;
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Operators</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          The people who may sign in to this console, and invitations for more. Every change is in the{' '}
          <Link
            to="/activity"
            search={{ kind: 'operator' }}
            className="text-teal-700 underline underline-offset-2 dark:text-teal-300"
          >
            activity log
          </Link>
          .
        </p>
      </div>
      <InviteForm />
      {list.isError ? (
        <Notice tone="error" title="The operators did not load">
          {errorInWords(list.error)}
        </Notice>
      ) : !data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <>
          <section
            aria-labelledby="operators-heading"
            className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
          >
            <h2
              id="operators-heading"
              className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800"
            >
              Operators <span className="font-normal text-slate-500">({data.operators.length})</span>
            </h2>
            <table aria-label="Operators" className="w-full text-left text-sm max-md:block">
              <thead className="text-xs text-slate-500 max-md:hidden dark:text-slate-400">
                <tr>
                  <th className="px-4 py-1.5 font-medium">Name</th>
                  <th className="px-2 py-1.5 font-medium">Role</th>
                  <th className="px-2 py-1.5 font-medium">Since</th>
                  <th className="px-4 py-1.5 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 max-md:block dark:divide-slate-800">
                {data.operators.map((o) => (
                  <OperatorRow key={o.did} operator={o} me={session?.did ?? ''} facilitators={facilitators} />
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="invites-heading" className={CARD}>
            <h2 id="invites-heading" className="text-sm font-semibold">
              Invitations not yet used <span className="font-normal text-slate-500">({data.invites.length})</span>
            </h2>
            {data.invites.length === 0 ? (
              <p className="mt-1 text-sm text-slate-500">None waiting.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
                {data.invites.map((i) => (
                  <li
                    key={i.id}
                    data-testid="pending-invite"
                    className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
                  >
                    <span className="font-medium">{i.role === 'facilitator' ? 'Facilitator' : 'Observer'}</span>
                    <span className="text-slate-600 dark:text-slate-400">
                      {i.createdBy === null
                        ? 'the first start’s link'
                        : i.createdBy === 'cli'
                          ? 'made with the operator CLI'
                          : `made by ${i.createdByName ?? unnamedOperator(i.createdBy)}`}
                      {i.createdAt !== null ? (
                        <>
                          {' '}
                          <When at={i.createdAt} form="relative" />
                        </>
                      ) : null}
                      , expires <When at={i.expiresAt} form="relative" />
                    </span>
                    <Button
                      size="sm"
                      className="ml-auto"
                      busy={withdraw.isPending && withdraw.variables === i.id}
                      onClick={() => withdraw.mutate(i.id)}
                    >
                      Withdraw
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}
