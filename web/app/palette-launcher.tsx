// Opens the command palette from anywhere: Ctrl K (⌘ K on a Mac), or the header's "Find" button
// for a mouse, a touch screen or a reader. The palette's own chunk loads on its first opening.
import { lazy, Suspense, useEffect, useState } from 'react';

const CommandPalette = lazy(() =>
  import('@web/features/palette/command-palette').then((m) => ({ default: m.CommandPalette })),
);

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform);

export function PaletteLauncher() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      e.preventDefault();
      setWanted(true);
      setOpen((was) => !was);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const keys = isMac() ? '⌘ K' : 'Ctrl K';
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}
        className="flex items-center gap-2 rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        Find
        <kbd className="hidden rounded bg-slate-100 px-1 font-sans text-xs text-slate-600 sm:inline dark:bg-slate-800 dark:text-slate-400">
          {keys}
        </kbd>
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <CommandPalette open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
