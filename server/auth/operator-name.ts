// How the server names an operator to other operators (decisions-server.md §55): the name they
// gave, else "Operator …K7Qm2x" (decisions-web.md §46); a name another operator also gave is told
// apart by the did's last six characters (§82), so a second operator taking a first one's name
// cannot pass as them. Other parts (decisions, presence, the inbox) call `operatorName`; nothing
// else formats a did for people.
import { nameKey, unnamedOperator, withDidTail } from '@shared/contract/operator-name';
import type { Store } from '../store/store';

/**
 * The operator's display name, told apart from any other operator's with the same name, or
 * "Operator …K7Qm2x" when they gave none. Operators are the enrolled people of one
 * console, a few dozen: reading them all to compare names is bounded by that, not by history.
 */
export async function operatorName(store: Pick<Store, 'access'>, did: string): Promise<string> {
  const name = (await store.access.getOperator(did))?.name;
  if (!name) return unnamedOperator(did);
  const key = nameKey(name);
  const shared = (await store.access.listOperators()).some((o) => o.did !== did && !!o.name && nameKey(o.name) === key);
  return shared ? withDidTail(name, did) : name;
}

/** `operatorName` bound to one store, as `(did) => Promise<string>`, for parts handed it as a dependency. */
export const operatorNamer =
  (store: Pick<Store, 'access'>) =>
  (did: string): Promise<string> =>
    operatorName(store, did);
