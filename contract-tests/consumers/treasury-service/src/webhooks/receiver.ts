// The service's webhook receiver: a handler per event it acts on, each recording what it saw.
import { createServer, type Server } from 'node:http';
import { createWebhookReceiver, type Delivery } from 'ramp-api/webhooks';
import type { AuditLog } from '../util/logger.js';
import type { EventInbox } from './inbox.js';

type Envelope = { event?: string; id?: string; data?: Record<string, unknown> };

const dataOf = (payload: Record<string, unknown>) => ((payload as Envelope).data ?? {}) as Record<string, unknown>;

export function treasuryReceiver(secret: string, inbox: EventInbox, log: AuditLog): Server {
  const record = ({ event, idempotencyKey }: Delivery, summary: string) =>
    inbox.add({ event, key: idempotencyKey, summary });
  const receiver = createWebhookReceiver({
    secret,
    handlers: {
      'fiat.payout.completed': (delivery) => {
        const { id, status } = dataOf(delivery.payload);
        record(delivery, `payout ${String(id)} ${String(status)}`);
      },
      'fiat.payout.rejected': (delivery) => {
        log.warn('payout rejected', { payload: delivery.payload });
        record(delivery, 'payout rejected');
      },
      'fiat.payin.completed': (delivery) => {
        const fields = Object.keys(dataOf(delivery.payload));
        record(delivery, `pay-in with ${fields.length} fields`);
      },
      'operation.status_updated': ({ payload, ...rest }) => {
        const envelope = payload as Envelope;
        record({ payload, ...rest }, `operation ${envelope.id ?? '?'} ${String(envelope.data?.status)}`);
      },
    },
  });
  return createServer(receiver.node);
}
