// Bridged relays and negotiation services that are down (external/service-status.ts): the
// bridge's status board tells each change of state. Its view is this instance's own and starts
// empty, so after a restart a service shows as down again once the bridge has tried it.
import type { InboxItem } from '@shared/contract/inbox';
import { quoteOf } from '@shared/inbox/rules';
import { serviceTitle } from '@shared/inbox/titles';
import type { ServiceStatus, ServiceStatusBoard } from '../external/service-status';
import type { InboxSource, SourceContext } from './source-context';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('inbox');

const PREFIX = 'service:';

export function startServiceSource(ctx: SourceContext, status: ServiceStatusBoard): InboxSource {
  const { board, store } = ctx;
  const follow = async (serviceId: string, current: ServiceStatus | undefined) => {
    const id = `${PREFIX}${serviceId}`;
    if (current?.state !== 'down') return board.remove(id);
    const service = (await store.services.listServices()).find((s) => s.id === serviceId);
    const item: InboxItem = {
      id,
      kind: 'service',
      urgency: 'soon',
      title: serviceTitle(service?.name || serviceId),
      // The error is the network's or the remote service's words.
      quote: current.lastError === null ? null : quoteOf(current.lastError),
      since: current.since,
      dueAt: null,
      href: '/settings/services',
      ref: { kind: 'service', serviceId },
      claim: null,
    };
    // Still down once the name is read: a change meanwhile wins.
    if (status.get(serviceId).state === 'down') board.put(item);
  };
  const off = status.onChange((serviceId, current) => {
    void follow(serviceId, current).catch((error: unknown) =>
      log.error({ err: error }, 'a service status could not be read'),
    );
  });
  return {
    async rebuild() {
      for (const [serviceId, current] of status.entries()) await follow(serviceId, current);
    },
    stop: off,
  };
}
