// The changes each rule of objects.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

export const CASES: RuleCase[] = [
  {
    rule: 'request-object-closed',
    name: 'additionalProperties: false added to a request body',
    family: 'v1',
    change: (d) => (schemas(d).CreatePayoutRequest.additionalProperties = false),
    line: /createPayout.*request body: additionalProperties: false added/,
    reverse: 'object-opened',
  },
  {
    rule: 'response-object-closed',
    name: 'additionalProperties: false added to a response',
    family: 'v1',
    change: (d) => (schemas(d).Payout.additionalProperties = false),
    line: /createPayout.*response 201: additionalProperties: false added/,
  },
  {
    rule: 'object-opened',
    name: 'additionalProperties: false removed from a response',
    family: 'v1',
    before: (d) => (schemas(d).Payout.additionalProperties = false),
    change: (d) => delete schemas(d).Payout.additionalProperties,
    line: /createPayout.*response 201: additionalProperties: false removed/,
  },
];
