// "Ana and Ben are here": the other operators on this console page, as initials and in words,
// updating live (web/lib/operators/use-presence.ts). Names are operators' own text, shown as text.
import { usePresence } from '@web/lib/operators/use-presence';
import { displayName, initials, presentInWords } from '@web/lib/operators/operator-words';
import { useSession } from '@web/lib/identity/use-session';

const MAX_AVATARS = 5;

export function PresenceAvatars({ where, label }: { where: string; label: string }) {
  const presence = usePresence(where);
  const me = useSession()?.did ?? null;
  if (!presence) return null;
  const others = presence.operators.filter((o) => o.did !== me);
  const words = presentInWords(presence.operators, me);
  return (
    <div className="flex items-center gap-2" data-testid="presence" data-where={where}>
      {others.length > 0 ? (
        <ul className="flex -space-x-1.5" aria-hidden>
          {others.slice(0, MAX_AVATARS).map((o) => (
            <li
              key={o.did}
              title={`${displayName(o)} · ${o.role}\n${o.did}`}
              className={`flex size-7 items-center justify-center rounded-full border-2 border-white text-[11px] font-semibold dark:border-slate-900 ${
                o.role === 'observer'
                  ? 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'
                  : 'bg-teal-700 text-white dark:bg-teal-500 dark:text-slate-950'
              }`}
            >
              {initials(o)}
            </li>
          ))}
        </ul>
      ) : null}
      <span className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite" data-testid="presence-words">
        <span className="sr-only">{label}: </span>
        {words}
      </span>
    </div>
  );
}
