// One run of the guided demo: the ids its three steps created. Remembered per browser so a reload
// or a trip to a step's own screen comes back to the same run; "Start over" begins a new run
// with fresh ids and leaves everything the old one made where it is (history is never deleted).
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface GuidedRun {
  readonly id: string;
  readonly task?: { readonly roomId: string; readonly agentId: string; readonly taskId: string };
  readonly negotiation?: { readonly id: string; readonly names: Readonly<Record<string, string>> };
  readonly meeting?: { readonly threadId: string };
}

interface GuidedRunState {
  run: GuidedRun;
  update: (patch: Omit<Partial<GuidedRun>, 'id'>) => void;
  startOver: () => void;
}

const freshRun = (): GuidedRun => ({ id: crypto.randomUUID() });

export const useGuidedRun = create<GuidedRunState>()(
  persist(
    (set) => ({
      run: freshRun(),
      update: (patch) => set((s) => ({ run: { ...s.run, ...patch } })),
      startOver: () => set({ run: freshRun() }),
    }),
    { name: 'switchboard.guided-demo', partialize: ({ run }) => ({ run }) },
  ),
);
