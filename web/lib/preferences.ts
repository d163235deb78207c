// UI preferences, remembered per browser (theme and time display are remembered).
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type Theme = 'light' | 'dark' | 'system';
export type TimeDisplay = 'utc' | 'local' | 'relative';

interface Preferences {
  theme: Theme;
  timeDisplay: TimeDisplay;
  setTheme: (theme: Theme) => void;
  setTimeDisplay: (display: TimeDisplay) => void;
}

export const usePreferences = create<Preferences>()(
  persist(
    (set) => ({
      theme: 'system',
      timeDisplay: 'local',
      setTheme: (theme) => set({ theme }),
      setTimeDisplay: (timeDisplay) => set({ timeDisplay }),
    }),
    { name: 'switchboard.preferences', partialize: ({ theme, timeDisplay }) => ({ theme, timeDisplay }) },
  ),
);

export function applyTheme(theme: Theme, prefersDark: boolean): void {
  document.documentElement.classList.toggle('dark', theme === 'dark' || (theme === 'system' && prefersDark));
}
