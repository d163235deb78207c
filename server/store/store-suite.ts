// The Store contract as one Vitest suite. Every engine runs it unchanged:
//   describeStoreContract('sqlite', async () => openSqliteStore(…))
// `makeStore` must return an empty store; each test gets its own and closes it.
// Concurrency tests fire calls with Promise.all: against a single SQLite connection they run one
// after another, against PostgreSQL's pool they race for real; the verdicts must be the same.
import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from './store';
import { describeAccessContract } from './contract/access';
import { describeActivityAggregatesContract } from './contract/activity-aggregates';
import { describeGrantsAndReviewContract } from './contract/grants-and-review';
import { describeHistoryRetentionContract } from './contract/history-retention';
import { describeInboxDismissalsContract } from './contract/inbox-dismissals';
import { describeOacopContract } from './contract/oacop';
import { describeRelayContract } from './contract/relay';
import { describeRoomActivityContract } from './contract/room-activity';
import { describeRoomsAndHistoryContract } from './contract/rooms-and-history';

export function describeStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    const current = () => store;

    describeRoomsAndHistoryContract(current);
    describeHistoryRetentionContract(current);
    describeGrantsAndReviewContract(current);
    describeRoomActivityContract(current);
    describeActivityAggregatesContract(current);
    describeInboxDismissalsContract(current);
    describeAccessContract(current);
    describeRelayContract(current);
    describeOacopContract(current);
  });
}
