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

/** The counterparty's name for the title: its directory manifest's `agent_name`, if registered. */
export type NameOf = (did: string) => Promise<string | null>;

export const directoryName =
  (store: SourceContext['store']): NameOf =>
  async (did) => {
    const name = (await store.relay.getRegistration(did))?.manifest['agent_name'];
    return typeof name === 'string' && name.trim() ? name.trim().slice(0, 60) : null;
  };

function itemOf(record: NegotiationRecord, party: string, now: number, name: string | null): InboxItem | null {
  const { state } = record;
  if (!availableActions(state, party, now).includes('cosign')) return null;
  const counterparty = state.parties[0] === party ? state.parties[1] : state.parties[0];
  const agreement = state.agreement;
  return {
    id: itemId(record.id, party),
    kind: 'cosign',
    urgency: 'soon',
    title: cosignTitle(state.category, counterparty, name),
    quote: null,
    since: record.updatedAt,
    dueAt: null,
    href: `/negotiations/${encodeURIComponent(record.id)}`,
    // The subject in words (decisions-web.md §32): the inbox shows the terms before any hash.
    ref: {
      kind: 'cosign',
      negotiationId: record.id,
      party,
      service: null,
      category: state.category,
      counterparty,
      ...(agreement
        ? {
            terms: agreement.terms,
            effectiveFrom: agreement.effective_from,
            effectiveUntil: agreement.effective_until,
          }
        : {}),
    },
    claim: null,
  };
}

export function startCosignSource(ctx: SourceContext, negotiations: NegotiationService): InboxSource {
  const { board, store, clock } = ctx;
  const nameOf = directoryName(store);
  const counterpartyName = (record: NegotiationRecord, party: string) =>
    nameOf(record.state.parties[0] === party ? record.state.parties[1] : record.state.parties[0]);
  const follow = async (record: NegotiationRecord) => {
    for (const party of record.state.parties) {
      const item = itemOf(record, party, clock.now(), await counterpartyName(record, party));
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
          const item = itemOf(record, operator.did, clock.now(), await counterpartyName(record, operator.did));
          if (item) items.push(item);
        }
      }
      board.replace(PREFIX, items);
    },
    stop: off,
  };
}
