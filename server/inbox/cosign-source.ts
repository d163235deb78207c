// RFC 0002 agreements waiting for an enrolled operator's co-signature (decisions-negotiation.md
// §26): an operator is a party by its did:key, and an accepted agreement its signature is missing
// from waits for it (availableActions says `cosign`). The negotiation service tells every save;
// at start the accepted negotiations of each operator are read back.
import type { InboxItem } from '@shared/contract/inbox';
import { cosignTitle } from '@shared/inbox/titles';
import { availableActions } from '@shared/negotiation/available-actions';
import type { NegotiationService } from '../negotiation/negotiation-service';
import type { NegotiationRecord } from '../store/negotiation-store';
import type { InboxSource, SourceContext } from './source-context';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

const PREFIX = 'cosign:';
/** Accepted negotiations read back per operator at start. */
const REBUILD_LIMIT = 500;

const itemId = (negotiationId: string, party: string) => `${PREFIX}${negotiationId}:${party}`;

function itemOf(record: NegotiationRecord, party: string, now: number): InboxItem | null {
  const { state } = record;
  if (!availableActions(state, party, now).includes('cosign')) return null;
  const counterparty = state.parties[0] === party ? state.parties[1] : state.parties[0];
  return {
    id: itemId(record.id, party),
    kind: 'cosign',
    urgency: 'soon',
    title: cosignTitle(state.category, counterparty),
    quote: null,
    since: record.updatedAt,
    dueAt: null,
    href: `/negotiations/${encodeURIComponent(record.id)}`,
    ref: { kind: 'cosign', negotiationId: record.id, party, service: null },
    claim: null,
  };
}

export function startCosignSource(ctx: SourceContext, negotiations: NegotiationService): InboxSource {
  const { board, store, clock } = ctx;
  const follow = async (record: NegotiationRecord) => {
    for (const party of record.state.parties) {
      const item = itemOf(record, party, clock.now());
      if (!item) {
        // Co-signed (settled by the party itself), or no longer waiting for anyone.
        const signed = record.state.agreement?.signatures[party] !== undefined;
        board.remove(itemId(record.id, party), signed ? party : null);
        continue;
      }
      if (await store.access.getOperator(party)) board.put(item);
    }
  };
  const off = negotiations.onSaved((record) => {
    void follow(record).catch((error: unknown) => log.error({ err: error }, 'a negotiation could not be read'));
  });
  return {
    async rebuild() {
      const items: InboxItem[] = [];
      for (const operator of await store.access.listOperators()) {
        const records = await store.negotiations.list({
          status: 'ACCEPTED',
          party: operator.did,
          limit: REBUILD_LIMIT,
        });
        for (const record of records) {
          const item = itemOf(record, operator.did, clock.now());
          if (item) items.push(item);
        }
      }
      board.replace(PREFIX, items);
    },
    stop: off,
  };
}
