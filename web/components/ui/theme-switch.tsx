import { useEffect } from 'react';
import { applyTheme, usePreferences, type Theme } from '@web/lib/preferences';

const OPTIONS: { value: Theme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System' },
];

export function ThemeSwitch() {
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);

  useEffect(() => {
    const media = matchMedia('(prefers-color-scheme: dark)');
    const update = () => applyTheme(theme, media.matches);
    update();
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, [theme]);

  return (
    // The word is for screen readers; sighted users get the icon, which keeps the header on one line.
    // On a phone the icon alone shows: the select lies over it, transparent, and opens as usual.
    <label
      className="relative flex items-center gap-1.5 rounded-md text-sm text-slate-600 max-sm:p-1 max-sm:focus-within:ring-2 max-sm:focus-within:ring-teal-600 dark:text-slate-400"
      title="Theme"
    >
      <span className="sr-only">Theme</span>
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
        <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 1.5a6.5 6.5 0 0 1 0 13z" fill="currentColor" />
      </svg>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-900 max-sm:absolute max-sm:inset-0 max-sm:opacity-0 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        value={theme}
        onChange={(e) => setTheme(e.target.value as Theme)}
      >
        {OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
