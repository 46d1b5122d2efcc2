// Where the service's notifications go: v1 integration endpoints registered with a retry policy, and the Business
// API's webhooks listed and switched off.
import { orThrow } from 'ramp-api';
import type { EventName } from 'ramp-api/webhooks';
import type { Clients } from '../api/clients.js';
import type { BusinessSchemas } from '../api/types.js';

export async function registerEndpoint(clients: Clients, name: string, url: string, event: EventName): Promise<string> {
  const created = await orThrow(
    clients.v1.createIntegrationEndpoint({
      body: {
        name,
        direction: 'OUTBOUND',
        url,
        httpMethod: 'POST',
        triggerEvent: event,
        timeoutMs: 5_000,
        retryConfig: { max_attempts: 5, initial_delay_ms: 500, multiplier: 2 },
        requestHeaders: { 'x-treasury': 'yes' },
      },
    }),
  );
  return created.isActive ? created.id : '';
}

export async function webhookUrls(clients: Clients, clientId: string): Promise<Record<string, string>> {
  const list = await orThrow(clients.business.listWebhooks({ params: { path: { clientId } } }));
  const hooks = (Object.values(list).find(Array.isArray) ?? []) as BusinessSchemas['Webhook'][];
  return Object.fromEntries(hooks.filter((h) => h.status).map((h) => [h.id, h.url]));
}

export async function switchOff(clients: Clients, clientId: string, webhookId: string): Promise<boolean> {
  const { data, response } = await clients.business.deleteWebhook({
    params: { path: { clientId, webhook_id: webhookId } },
  });
  if (response.status === 404) return false;
  return data?.status === false;
}
