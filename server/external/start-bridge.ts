// Starts the external-services bridge for a running server: EXTERNAL_SERVICES is written into
// the registry (env entries keep their ids, so their cursors survive a restart), then the
// long-polls start. ALLOW_PRIVATE_SERVICE_URLS decides whether services registered in the
// console may be on private addresses (decisions-server.md §41).
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Store } from '../store/store';
import { RelayBridge, type RelayBridgeOptions } from './relay-bridge';
import { ServiceFetcher } from './service-fetcher';
import { envServiceId } from './services-config';

export async function startBridge(
  store: Store,
  clock: Clock,
  config: Pick<Config, 'externalServices' | 'allowPrivateServiceUrls'>,
  options: Partial<RelayBridgeOptions> = {},
): Promise<RelayBridge> {
  for (const s of config.externalServices ?? []) {
    const id = envServiceId(s);
    const existing = await store.services.getService(id);
    await store.services.putService({
      id,
      name: s.name,
      baseUrl: s.baseUrl,
      kind: s.kind,
      readOnly: s.readOnly,
      origin: 'env',
      createdAt: existing?.createdAt ?? clock.now(),
    });
  }
  const bridge = new RelayBridge({
    store,
    clock,
    outbound: new ServiceFetcher({ allowPrivate: config.allowPrivateServiceUrls ?? false }),
    ...options,
  });
  bridge.start();
  return bridge;
}
