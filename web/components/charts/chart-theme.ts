// Colours for charts drawn on a canvas, which cannot read Tailwind classes: the same slate, teal
// and rose the console's classes use, in light and dark. A chart is drawn again when the theme
// changes (the `dark` class on <html>, web/lib/preferences.ts).
import { useSyncExternalStore } from 'react';

export type BarTone = 'ok' | 'bad' | 'neutral';

export interface ChartColors {
  readonly scheme: 'light' | 'dark';
  readonly text: string;
  readonly grid: string;
  readonly tones: Readonly<Record<BarTone, string>>;
}

const LIGHT: ChartColors = {
  scheme: 'light',
  text: '#475569', // slate-600
  grid: '#e2e8f0', // slate-200
  tones: { ok: '#0d9488', bad: '#e11d48', neutral: '#64748b' }, // teal-600, rose-600, slate-500
};
const DARK: ChartColors = {
  scheme: 'dark',
  text: '#cbd5e1', // slate-300
  grid: '#1e293b', // slate-800
  tones: { ok: '#2dd4bf', bad: '#fb7185', neutral: '#94a3b8' }, // teal-400, rose-400, slate-400
};

const isDark = () => document.documentElement.classList.contains('dark');

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/** The chart colours of the theme in force, following its changes. */
export function useChartColors(): ChartColors {
  return useSyncExternalStore(subscribe, isDark) ? DARK : LIGHT;
}
