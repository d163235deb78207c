// Keyboard shortcuts listed behind `?`, and the key handler for the global ones.
// Keys typed into a field, or with a modifier, are left alone; dialogs keep their own keys, and
// while one is open no key here acts. Review keys go to the review list on screen (§28).
import { useNavigate } from '@tanstack/react-router';
import { Dialog } from '@web/components/ui/dialog';
import { useEffect, useRef, useState } from 'react';
import { followPresenterClass, usePresenter } from '@web/lib/presenter';
import { dispatchReviewKey } from '@web/lib/review/review-keys';
import { idle, isTypingTarget, matchKey, SHORTCUTS, type SequenceState } from './shortcut-keys';

const Kbd = ({ k }: { k: string }) => (
  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800 shadow-sm dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100">
    {k}
  </kbd>
);

export function Shortcuts() {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const sequence = useRef<SequenceState>(idle);

  useEffect(followPresenterClass, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('[role="dialog"]') || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      if (isTypingTarget(e.target)) {
        if (e.key === 'Escape') (e.target as HTMLElement).blur();
        return;
      }
      const { action, state } = matchKey(sequence.current, e.key, Date.now());
      sequence.current = state;
      if (!action) return;
      if (typeof action === 'object' && 'review' in action) {
        if (dispatchReviewKey(action.review)) e.preventDefault();
        return;
      }
      e.preventDefault();
      if (typeof action === 'object') void navigate({ to: action.goTo });
      else if (action === 'help') setOpen(true);
      else if (action === 'presenter') usePresenter.getState().toggle();
      else if (action === 'search')
        document.querySelector<HTMLElement>('[data-shortcut="search"], input[type="search"]')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Keyboard shortcuts"
      description="Keys work when you are not typing in a field."
    >
      <table className="w-full text-sm" data-testid="shortcuts-table">
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {SHORTCUTS.map((s) => (
            <tr key={s.keys.join(' ')}>
              <td className="py-1.5 pr-3 whitespace-nowrap">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i ? <span className="px-1 text-xs text-slate-500">then</span> : null}
                    <Kbd k={k} />
                  </span>
                ))}
              </td>
              <td className="py-1.5 pr-3">{s.what}</td>
              <td className="whitespace-nowrap py-1.5 text-right text-xs text-slate-500 dark:text-slate-400">
                {s.scope}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
