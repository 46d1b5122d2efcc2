// The one place the service makes its API clients: each exchanges its credentials for tokens itself.
import { type BusinessClient, createBusinessClient, createV1Client, type V1Client } from 'ramp-api';
import type { TreasuryConfig } from '../config.js';

export interface Clients {
  business: BusinessClient;
  v1: V1Client;
}

export function makeClients(config: TreasuryConfig): Clients {
  const business = createBusinessClient({
    baseUrl: config.baseUrl,
    auth: { credentials: { clientId: config.business.clientId, clientSecret: config.business.clientSecret } },
    timeoutMs: 10_000,
  });
  const v1 = createV1Client({
    baseUrl: config.baseUrl,
    auth: { credentials: { ...config.v1 } },
    timeoutMs: 10_000,
  });
  return { business, v1 };
}
