// Presenter mode: one key (`p`) switches a large, high-contrast theme on the
// whole console (html.presenter, styles.css) and makes story views follow live events. It works
// over light and dark alike. Remembered per browser like the other preferences.
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface PresenterState {
  on: boolean;
  toggle: () => void;
  set: (on: boolean) => void;
}

export const usePresenter = create<PresenterState>()(
  persist(
    (set) => ({
      on: false,
      toggle: () => set((s) => ({ on: !s.on })),
      set: (on) => set({ on }),
    }),
    { name: 'switchboard.presenter', partialize: ({ on }) => ({ on }) },
  ),
);

const apply = (on: boolean) => document.documentElement.classList.toggle('presenter', on);

/** Keeps <html class="presenter"> in step with the store; call once at boot. */
export function followPresenterClass(): () => void {
  apply(usePresenter.getState().on);
  return usePresenter.subscribe((s) => apply(s.on));
}
