// Routes other than /enroll need a session: nobody signed in sees the sign-in screen in place
// of the screen they asked for, and lands on it once signed in (the address never changes).
import { useQuery } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { sessionQuery } from '@web/lib/api/auth-session';
import { describeAuthError } from '@web/lib/identity/auth-errors';
import { Suspense } from 'react';
import { BackupReminder, EnrolledNotice, SignInScreen } from './identity-parts';

export function ConsoleGate() {
  const session = useQuery(sessionQuery);
  if (session.isPending) {
    return (
      <p role="status" className="mx-auto mt-8 max-w-md text-sm text-slate-500">
        Checking your session…
      </p>
    );
  }
  if (session.isError) {
    const text = describeAuthError(session.error);
    return (
      <div className="mx-auto mt-8 max-w-md">
        <Notice
          tone="error"
          title={`Cannot check your session: ${text.title.toLowerCase()}`}
          action={
            <Button onClick={() => void session.refetch()} busy={session.isFetching}>
              Try again
            </Button>
          }
        >
          {text.detail}
        </Notice>
      </div>
    );
  }
  if (!session.data) {
    return (
      <Suspense fallback={null}>
        <SignInScreen />
      </Suspense>
    );
  }
  return (
    <>
      <Suspense fallback={null}>
        <EnrolledNotice />
        <BackupReminder sessionDid={session.data.did} />
      </Suspense>
      <Outlet />
    </>
  );
}
