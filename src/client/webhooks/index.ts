// ramp-api/webhooks: typed event names, a receiver for the service's notifications, and the delivery schedule.
export {
  createWebhookReceiver,
  defaultEventResolver,
  eventNames,
  type Delivery,
  type EventName,
  type EventPayload,
  type EventResolver,
  type WebhookAnswer,
  type WebhookHandlers,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.js';
export { deliverySchedule, type DeliverySchedule, type RetryConfigInput } from './schedule.js';
