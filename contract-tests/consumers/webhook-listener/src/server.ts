// Receives the service's notifications about payouts and new users, and logs them.
import { createServer } from 'node:http';
import { createWebhookReceiver } from 'ramp-api/webhooks';

const receiver = createWebhookReceiver({
  secret: process.env.RAMP_WEBHOOK_SECRET ?? 'a-long-random-secret-for-the-example',
  handlers: {
    'fiat.payout.completed': ({ payload }) => {
      console.log('payout completed', String(payload.payoutId));
    },
    'user.created': ({ payload, idempotencyKey }) => {
      // The payload goes to the audit log whole.
      console.log(idempotencyKey, JSON.stringify(payload));
    },
  },
});

export const server = createServer(receiver.node);
