// How the server names an operator to other operators (decisions-server.md §55): the name they
// gave, else a short did. Other parts (decisions, presence, the inbox) call `operatorName`;
// nothing else formats a did for people.
import { shortDid } from '@shared/contract/operator-name';
import type { Store } from '../store/store';

export { shortDid };

/** The operator's display name, or their short did when they gave none (or are not an operator). */
export async function operatorName(store: Pick<Store, 'access'>, did: string): Promise<string> {
  return (await store.access.getOperator(did))?.name ?? shortDid(did);
}

/** `operatorName` bound to one store, as `(did) => Promise<string>`, for parts handed it as a dependency. */
export const operatorNamer =
  (store: Pick<Store, 'access'>) =>
  (did: string): Promise<string> =>
    operatorName(store, did);
