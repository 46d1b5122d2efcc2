// The changes each rule of types.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const payout = (d: any) => schemas(d).CreatePayoutRequest.properties;

export const CASES: RuleCase[] = [
  {
    rule: 'request-type-narrowed',
    name: 'a narrowed request type',
    family: 'v1',
    change: (d) => (payout(d).amount.type = 'integer'),
    line: /createPayout.*request body: amount: type narrowed from number to integer/,
  },
  {
    rule: 'request-type-widened',
    name: 'a request field made nullable',
    family: 'v1',
    change: (d) => (payout(d).destinationId.type = ['string', 'null']),
    line: /createPayout.*request body: destinationId: now also accepts null/,
  },
  {
    rule: 'response-type-widened',
    name: 'a response field made nullable',
    family: 'v1',
    change: (d) => (schemas(d).Payout.properties.amount.type = ['number', 'null']),
    line: /createPayout.*response 201: amount: type widened from number to number\|null \(nullable\)/,
    reverse: 'response-type-narrowed',
  },
  {
    rule: 'response-type-widened',
    name: 'a response type widened',
    family: 'business',
    change: (d) => (schemas(d).Bank.properties.status.type = ['string', 'boolean']),
    line: /listBanks.*response 200: \[\]\.status: type widened/,
  },
  {
    rule: 'response-type-narrowed',
    name: 'a nullable response field no longer null',
    family: 'v1',
    before: (d) => (schemas(d).Payout.properties.amount.type = ['number', 'null']),
    change: (d) => (schemas(d).Payout.properties.amount.type = 'number'),
    line: /createPayout.*response 201: amount: type narrowed to number/,
  },
  {
    rule: 'response-type-dropped',
    name: 'a response field whose type is no longer stated',
    family: 'v1',
    change: (d) => delete schemas(d).Payout.properties.amount.type,
    line: /createPayout.*response 201: amount: type no longer stated \(was number\)/,
  },
  {
    rule: 'request-type-dropped',
    name: 'a request field whose type is no longer stated',
    family: 'v1',
    change: (d) => delete payout(d).amount.type,
    line: /createPayout.*request body: amount: type no longer stated \(was number\)/,
  },
];
