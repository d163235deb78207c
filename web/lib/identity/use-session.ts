// The signed-in operator for any screen: the role decides what it may do.
import { useQuery } from '@tanstack/react-query';
import type { OperatorSession } from '@shared/contract/auth';
import { sessionQuery } from '@web/lib/api/auth-session';

/**
 * The signed-in operator, or null when nobody is. Screens under the console's session gate
 * can rely on it being set; acting controls check `canAct(session)`.
 */
export function useSession(): OperatorSession | null {
  const { data } = useQuery(sessionQuery);
  return data ?? null;
}

/** Observers see everything and act on nothing. */
export const canAct = (session: OperatorSession | null): boolean => session?.role === 'facilitator';
