// The changes each rule of conditions.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

/** A requirement that holds only for ACH payouts. */
const achNeedsCurrency = (schema: any) =>
  Object.assign(schema, {
    if: { required: ['paymentMethod'], properties: { paymentMethod: { const: 'ACH' } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, in a schema that is never awaited
    then: { required: ['currency'] },
  });
const dropCondition = (schema: any) => {
  delete schema.if;
  delete schema.then;
};

export const CASES: RuleCase[] = [
  {
    rule: 'request-condition-tightened',
    name: 'an if/then requirement added to a request body',
    family: 'v1',
    change: (d) => achNeedsCurrency(schemas(d).CreatePayoutRequest),
    line: /createPayout.*request body: conditional requirement \(if\/then\) added: if .*ACH.* then .*currency/,
    reverse: 'request-condition-loosened',
  },
  {
    rule: 'request-condition-loosened',
    name: 'an if/then requirement removed from a request body',
    family: 'v1',
    before: (d) => achNeedsCurrency(schemas(d).CreatePayoutRequest),
    change: (d) => dropCondition(schemas(d).CreatePayoutRequest),
    line: /createPayout.*request body: conditional requirement \(if\/then\) removed/,
  },
  {
    rule: 'response-condition-loosened',
    name: 'an if/then requirement removed from a response',
    family: 'v1',
    before: (d) => achNeedsCurrency(schemas(d).Payout),
    change: (d) => dropCondition(schemas(d).Payout),
    line: /createPayout.*response 201: conditional requirement \(if\/then\) removed/,
    reverse: 'response-condition-tightened',
  },
  {
    rule: 'response-condition-tightened',
    name: 'an if/then requirement added to a response',
    family: 'v1',
    change: (d) => achNeedsCurrency(schemas(d).Payout),
    line: /createPayout.*response 201: conditional requirement \(if\/then\) added/,
  },
];
