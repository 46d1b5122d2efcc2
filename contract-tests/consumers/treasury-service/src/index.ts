// The treasury service's entry points.
export { configFromEnv, type TreasuryConfig } from './config.js';
export { Treasury } from './treasury.js';
export { register, verificationLink } from './users/onboarding.js';
export { adminAccounts } from './users/user-directory.js';
export { registerEndpoint, switchOff, webhookUrls } from './webhooks/endpoints.js';
export { EventInbox } from './webhooks/inbox.js';
export { treasuryReceiver } from './webhooks/receiver.js';
