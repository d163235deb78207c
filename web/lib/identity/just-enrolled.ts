// What the enrollment page hands to the console it opens: the role just given and, when the key
// was made there, its backup file. In memory only, never stored: the backup stays downloadable
// until this tab is reloaded or closed (decisions-web.md §19: the key's bytes exist only while
// it is made, so the file cannot be made again).
import type { OperatorRole } from '@shared/contract/auth';
import { create } from 'zustand';

export interface JustEnrolled {
  readonly role: OperatorRole;
  readonly backup: { readonly fileName: string; readonly text: string } | null;
}

interface JustEnrolledState {
  readonly enrolled: JustEnrolled | null;
  readonly set: (enrolled: JustEnrolled | null) => void;
}

export const useJustEnrolled = create<JustEnrolledState>()((set) => ({
  enrolled: null,
  set: (enrolled) => set({ enrolled }),
}));
