// The identity screens load as their own chunk (with the Ed25519, hashing and IndexedDB code
// they need), in parallel with the session check, keeping the entry chunk small.
import { lazy } from 'react';

export const SignInScreen = lazy(() =>
  import('@web/features/identity/sign-in-screen').then((m) => ({ default: m.SignInScreen })),
);
export const AccountMenu = lazy(() =>
  import('@web/features/identity/account-menu').then((m) => ({ default: m.AccountMenu })),
);
export const BackupReminder = lazy(() =>
  import('@web/features/identity/backup-reminder').then((m) => ({ default: m.BackupReminder })),
);
export const EnrolledNotice = lazy(() =>
  import('@web/features/identity/enrolled-notice').then((m) => ({ default: m.EnrolledNotice })),
);
