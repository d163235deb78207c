// /api/webhooks: outgoing webhook endpoints with their delivery log; shapes: shared/contract/webhooks.ts.
import { queryOptions } from '@tanstack/react-query';
import { WebhookCreated, WebhookList, WebhookTestSent, type WebhookInput } from '@shared/contract/webhooks';
import { ApiError, getJson, postJson } from './http';

export type { WebhookDeliveryView, WebhookEndpointView } from '@shared/contract/webhooks';

export const webhooksQuery = queryOptions({
  queryKey: ['webhooks'],
  queryFn: ({ signal }) => getJson('/api/webhooks', WebhookList, { signal }),
  // The delivery log moves by itself (retries, the dispatcher): polled while the screen is open.
  refetchInterval: 2_000,
});

export const addWebhook = (input: WebhookInput) => postJson('/api/webhooks', input, WebhookCreated);

export const sendTestWebhook = (id: string) =>
  postJson(`/api/webhooks/${encodeURIComponent(id)}/test`, {}, WebhookTestSent);

export async function removeWebhook(id: string): Promise<void> {
  const res = await fetch(`/api/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined;
    throw new ApiError(
      res.status,
      body?.code ?? `HTTP_${res.status}`,
      body?.message ?? `The server answered ${res.status}.`,
    );
  }
}
