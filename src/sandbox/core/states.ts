// The state machines the sandbox enforces: one table per resource (state, trigger, condition, next state,
// events). Rows marked `source` come from the source document; the rest are the sandbox's own choices. `events`
// are emitted, in the transaction of the change, when the transition is applied (./transition.ts), and the
// event mapping in the control API's description is rendered from these tables. Plain data: the dashboard's
// browser bundle reads them too, to offer only the actions a record's state allows. A trigger is an operationId
// and an event an event name of the generated types: a name that is not one fails to compile.
import type { EventName } from 'ramp-api/webhooks';
import type { OperationId } from './handler.js';

export interface Transition {
  from: string | null;
  trigger: OperationId;
  condition: string;
  to: string;
  events: readonly EventName[];
  source: boolean;
  /**
   * Where one trigger from one state has several outcomes, the name of the case this row is for (an on-ramp's
   * execution mode); the handler names the case, so the order of the rows never decides.
   */
  when?: string;
}

export type Machine = readonly Transition[];

export const userStates: Machine = [
  {
    from: null,
    trigger: 'registerUser',
    condition: 'valid body and x-integration-register',
    to: 'pending',
    events: ['user.created'],
    source: true,
  },
  {
    from: 'pending',
    trigger: 'approveUser',
    condition: 'compliance review passes',
    to: 'approved',
    events: ['user.updated'],
    source: false,
  },
  {
    from: 'pending',
    trigger: 'rejectUser',
    condition: 'compliance review fails',
    to: 'rejected',
    events: ['user.canceled'],
    source: false,
  },
  {
    from: 'rejected',
    trigger: 'approveUser',
    condition: 'review reopened',
    to: 'approved',
    events: ['user.updated'],
    source: false,
  },
  {
    from: 'approved',
    trigger: 'rejectUser',
    condition: 'approval withdrawn',
    to: 'rejected',
    events: ['user.canceled'],
    source: false,
  },
];

export const bankAccountStates: Machine = [
  {
    from: null,
    trigger: 'createBankAccount',
    condition: 'owner is the client or its user',
    to: 'in_review',
    events: [],
    source: true,
  },
  {
    from: 'in_review',
    trigger: 'acceptBankAccount',
    condition: 'review passes',
    to: 'accepted',
    events: [],
    source: false,
  },
  {
    from: 'in_review',
    trigger: 'rejectBankAccount',
    condition: 'review fails',
    to: 'rejected',
    events: [],
    source: false,
  },
];

export const custodyWalletStates: Machine = [
  {
    from: null,
    trigger: 'createCustodyWallet',
    condition: 'owner is the client or an approved user',
    to: 'accepted',
    events: ['wallet.created'],
    source: true,
  },
];

export const walletTransferStates: Machine = [
  {
    from: null,
    trigger: 'createWalletTransfer',
    condition: "origin wallet is the user's and holds the amount (debited)",
    to: 'pending',
    events: ['operation.transfer.created'],
    source: false,
  },
  {
    from: 'pending',
    trigger: 'completeWalletTransfer',
    condition: 'none',
    to: 'completed',
    events: ['operation.transfer.status_updated'],
    source: false,
  },
  {
    from: 'pending',
    trigger: 'cancelWalletTransfer',
    condition: 'none (origin refunded)',
    to: 'cancelled',
    events: ['operation.transfer.status_updated'],
    source: false,
  },
];

export const payoutStates: Machine = [
  {
    from: null,
    trigger: 'createPayout',
    condition: "destination accepted and the user's; balance covers the amount (debited)",
    to: 'PENDING',
    events: [],
    source: true,
  },
  {
    from: 'PENDING',
    trigger: 'completePayout',
    condition: 'none',
    to: 'COMPLETED',
    events: ['fiat.payout.completed'],
    source: false,
  },
  {
    from: 'PENDING',
    trigger: 'rejectPayout',
    condition: 'none (balance refunded)',
    to: 'REJECTED',
    events: ['fiat.payout.rejected'],
    source: false,
  },
];

export const onRampStates: Machine = [
  {
    from: null,
    trigger: 'createOnRamp',
    condition: "user approved; pair enabled; destination approved and the user's; within tier; NORMAL mode",
    to: 'PENDING_DEPOSIT',
    events: ['operation.created'],
    source: false,
    when: 'NORMAL',
  },
  {
    from: null,
    trigger: 'createOnRamp',
    condition: 'as above, INVERSE mode: paid from the COP balance (debited)',
    to: 'COMPLETED',
    events: ['operation.created', 'fiat.payin.completed'],
    source: false,
    when: 'INVERSE',
  },
  {
    from: 'PENDING_DEPOSIT',
    trigger: 'payOnRamp',
    condition: 'deposit arrives (stablecoin credited)',
    to: 'COMPLETED',
    events: ['fiat.payin.completed', 'operation.status_updated'],
    source: false,
  },
  {
    from: 'PENDING_DEPOSIT',
    trigger: 'rejectOnRamp',
    condition: 'the deposit fails at the bank (nothing credited)',
    to: 'REJECTED',
    events: ['fiat.payin.rejected', 'operation.status_updated'],
    source: false,
  },
];

export const businessWebhookStates: Machine = [
  { from: null, trigger: 'createBusinessWebhook', condition: 'none', to: 'true', events: [], source: false },
  {
    from: 'true',
    trigger: 'deleteWebhook',
    condition: 'webhook exists for the client',
    to: 'false',
    events: [],
    source: true,
  },
  {
    from: 'false',
    trigger: 'deleteWebhook',
    condition: 'already inactive: stays inactive',
    to: 'false',
    events: [],
    source: false,
  },
];

/** Every resource's table, by resource name: the one list of the state machines. */
export const machines: Record<string, Machine> = {
  user: userStates,
  bankAccount: bankAccountStates,
  custodyWallet: custodyWalletStates,
  walletTransfer: walletTransferStates,
  payout: payoutStates,
  onRamp: onRampStates,
  businessWebhook: businessWebhookStates,
};
