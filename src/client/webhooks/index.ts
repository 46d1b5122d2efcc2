// ramp-api/webhooks: typed event names, a receiver for the service's notifications, and the delivery schedule.
export {
  createWebhookReceiver,
  type Delivery,
  defaultEventResolver,
  type EventName,
  type EventPayload,
  type EventResolver,
  eventNames,
  type WebhookAnswer,
  type WebhookHandlers,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.js';
export { type DeliverySchedule, deliverySchedule, type RetryConfigInput } from './schedule.js';
