// The mic as a live object: a countdown to expires_at and a budget meter (spent / max). It ends
// by itself when time or budget runs out, before the gateway's system mic_revoke arrives.
import type { Grant } from '@web/lib/api/rooms-grants';
import { When } from '@web/components/when';
import { timeLeft } from '@web/lib/time-words';
import { countdownInWords, formatCountdown, grantEndInWords, grantState } from './grant-clock';

/** A ticking "14:59 left" in the last hour, words above it, and the date past a month (time-words). */
export const countdownShort = (expiresAt: number, secondsLeft: number, now: number): string =>
  secondsLeft < 3600 ? `${formatCountdown(secondsLeft)} left` : timeLeft(expiresAt * 1000, now);

export function GrantMeter({ grant, now, compact = false }: { grant: Grant; now: number; compact?: boolean }) {
  const state = grantState(grant, now);
  const pct = grant.maxMessages > 0 ? Math.min(100, Math.round((grant.spent / grant.maxMessages) * 100)) : 100;
  const low = state.live && (state.budgetLeft <= 1 || state.secondsLeft <= 60);
  return (
    <div className={compact ? 'flex items-center gap-2' : 'mt-1 space-y-1'} data-testid="grant-meter">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
        <meter
          min={0}
          max={grant.maxMessages}
          value={grant.spent}
          aria-label={`Budget of ${grant.agentId} for ${grant.taskId}`}
          aria-valuetext={`${grant.spent} of ${grant.maxMessages} messages used`}
          className="sr-only"
        />
        <span
          aria-hidden
          className={`h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700 ${compact ? 'w-16' : 'w-24'}`}
        >
          <span
            className={`block h-full ${!state.live ? 'bg-slate-400' : low ? 'bg-amber-500' : 'bg-teal-600 dark:bg-teal-400'}`}
            style={{ width: `${pct}%` }}
          />
        </span>
        <span className="tabular-nums text-slate-600 dark:text-slate-300" data-testid="grant-budget">
          {grant.spent}/{grant.maxMessages} used
        </span>
        {state.live ? (
          <>
            <span
              className={`tabular-nums ${low ? 'text-amber-700 dark:text-amber-300' : 'text-slate-600 dark:text-slate-300'}`}
              data-testid="grant-countdown"
            >
              <span aria-hidden>{countdownShort(grant.expiresAt, state.secondsLeft, now)}</span>
              <span className="sr-only">
                {state.secondsLeft < 3600 ? countdownInWords(state.secondsLeft) : timeLeft(grant.expiresAt * 1000, now)}
              </span>
            </span>
            {compact ? null : (
              <span className="text-slate-500 dark:text-slate-400" data-testid="grant-end">
                <When at={grant.expiresAt * 1000} prefix="ends " />
              </span>
            )}
          </>
        ) : (
          <span className="font-medium text-slate-500 dark:text-slate-400" data-testid="grant-ended">
            Ended: {grantEndInWords(state.reason)}
          </span>
        )}
      </div>
    </div>
  );
}
