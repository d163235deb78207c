// The 409 of a lost race (decisions-server.md §57): a facilitator who decides
// something another already decided is told who and when, in the coded error's `details`
// (shared/contract/operators.ts DecidedDetail), so the console can say "Ana approved this 12
// seconds ago" instead of a bare conflict.
import type { DecidedDetail } from '@shared/contract/operators';
import { CodedError } from '@shared/errors';
import type { Store } from '../store/store';
import { operatorName } from './operator-name';

/** A CONFLICT carrying `decision`, `decidedBy` ({did, name}, null for the system) and `decidedAt`. */
export async function decidedConflict(
  store: Pick<Store, 'access'>,
  decision: string,
  decidedBy: string | null,
  decidedAt: number | null,
): Promise<CodedError> {
  const by = decidedBy === null ? null : { did: decidedBy, name: await operatorName(store, decidedBy) };
  const detail: DecidedDetail = { decision, decidedBy: by, decidedAt };
  const message = by ? `${by.name} already ${decision} this.` : `This was already ${decision}.`;
  return new CodedError('CONFLICT', message, detail);
}
