import type { PassphraseStrength } from '@web/lib/identity/passphrase-strength';

const BAR = ['bg-rose-500', 'bg-rose-500', 'bg-amber-500', 'bg-emerald-500', 'bg-emerald-500'] as const;
const LABEL = {
  'too-short': 'Too short',
  weak: 'Weak',
  fair: 'Fair',
  strong: 'Strong',
  'very-strong': 'Very strong',
} as const;

export function PassphraseMeter({ strength, empty }: { strength: PassphraseStrength; empty: boolean }) {
  return (
    <div className="mt-2">
      <div className="flex gap-1" aria-hidden>
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={`h-1 flex-1 rounded-full ${!empty && strength.score >= step ? BAR[strength.score] : 'bg-slate-200 dark:bg-slate-800'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
        {empty ? `Choose a passphrase. ${strength.hint}` : `${LABEL[strength.level]}. ${strength.hint}`}
      </p>
    </div>
  );
}
