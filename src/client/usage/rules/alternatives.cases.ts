// The changes each rule of alternatives.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const tierEscalation = (d: any) => schemas(d).CreateOnRampResponse.properties.tierEscalation;
const currency = (d: any) => schemas(d).CreatePayoutRequest.properties.currency;
const twoShapes = (d: any) => (currency(d).oneOf = [{ type: 'string' }, { type: 'number' }]);

export const CASES: RuleCase[] = [
  {
    rule: 'response-alternative-added',
    name: 'a response value with one more oneOf alternative',
    family: 'v1',
    change: (d) => tierEscalation(d).oneOf.push({ type: 'string' }),
    line: /createOnRamp.*response 201: tierEscalation: oneOf alternative\(s\) added/,
    reverse: 'response-alternative-removed',
  },
  {
    rule: 'response-alternative-removed',
    name: 'a response value with one oneOf alternative less',
    family: 'v1',
    change: (d) => tierEscalation(d).oneOf.pop(),
    line: /createOnRamp.*response 201: tierEscalation: oneOf alternative\(s\) removed/,
  },
  {
    rule: 'request-alternative-removed',
    name: 'a request value with one oneOf alternative less',
    family: 'v1',
    before: twoShapes,
    change: (d) => currency(d).oneOf.pop(),
    line: /createPayout.*request body: currency: oneOf alternative\(s\) removed/,
    reverse: 'request-alternative-added',
  },
  {
    rule: 'request-alternative-added',
    name: 'a request value with one more oneOf alternative',
    family: 'v1',
    before: twoShapes,
    change: (d) => currency(d).oneOf.push({ type: 'boolean' }),
    line: /createPayout.*request body: currency: oneOf alternative\(s\) added/,
  },
];
