// Events and webhook delivery of the sandbox: the worker and the control handlers (their tables are
// made with the others', by resources/index.ts's migrate).

import { type EndpointPolicy, endpointPolicy } from '../core/addresses.js';
import type { Clock } from '../core/clock.js';
import type { SandboxLogger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { type DeliveryWorker, startDeliveryWorker } from './worker.js';

export interface SandboxEvents {
  worker: DeliveryWorker;
  close(): Promise<void>;
}

export async function startEvents(
  db: Db,
  clock: Clock,
  endpoints: EndpointPolicy = endpointPolicy(),
  logger?: SandboxLogger,
  checkSpace?: () => Promise<void>,
): Promise<SandboxEvents> {
  const worker = startDeliveryWorker(db, clock, { endpoints, ...(logger ? { logger } : {}), checkSpace });
  return { worker, close: () => worker.close() };
}

export { createEventCatalog } from './store.js';
export { processOf } from './table.js';
