// The changes each rule of fields.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const payout = (d: any) => schemas(d).CreatePayoutRequest;

export const CASES: RuleCase[] = [
  {
    rule: 'response-field-removed',
    name: 'a removed response field',
    family: 'business',
    change: (d) => delete schemas(d).BankAccount.properties.accountNickname,
    line: /listBankAccounts.*response 200: \[\]\.accountNickname: field removed/,
    reverse: 'response-field-added',
  },
  {
    rule: 'response-field-added',
    name: 'a new optional response field',
    family: 'business',
    change: (d) => (schemas(d).BankAccount.properties.branchName = { type: 'string', description: 'Branch.' }),
    line: /listBankAccounts.*response 200: \[\]\.branchName: optional field added/,
  },
  {
    rule: 'request-field-removed',
    name: 'a removed request field',
    family: 'business',
    before: (d) => (schemas(d).CreateCustodyWalletRequest.properties.label = { type: 'string', description: 'Label.' }),
    change: (d) => delete schemas(d).CreateCustodyWalletRequest.properties.label,
    line: /request body: label: field removed/,
    reverse: 'request-optional-field-added',
  },
  {
    rule: 'request-optional-field-added',
    name: 'a new optional request field',
    family: 'business',
    change: (d) => (schemas(d).CreateCustodyWalletRequest.properties.label = { type: 'string', description: 'Label.' }),
    line: /request body: label: optional field added/,
  },
  {
    rule: 'request-required-field-added',
    name: 'a new required request field',
    family: 'v1',
    change: (d) => {
      payout(d).properties.reference = { type: 'string', description: 'Reference.' };
      payout(d).required.push('reference');
    },
    line: /createPayout.*request body: reference: required field added/,
  },
  {
    rule: 'request-field-became-required',
    name: 'an optional request field made required',
    family: 'v1',
    change: (d) => payout(d).required.push('paymentMethod'),
    line: /createPayout.*request body: paymentMethod: now required/,
  },
  {
    rule: 'response-field-became-optional',
    name: 'a response field no longer always present',
    family: 'business',
    change: (d) => (schemas(d).Webhook.required = schemas(d).Webhook.required.filter((n: string) => n !== 'url')),
    line: /deleteWebhook.*response 200: url: no longer always present/,
  },
];
