// The changes each rule of constraints.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const payout = (d: any) => schemas(d).CreatePayoutRequest.properties;
const onRamp = (d: any) => schemas(d).CreateOnRampRequest;
const endpoint = (d: any) => schemas(d).CreateIntegrationEndpointRequest.properties;

/** A request bound tightened: breaking, and its reverse loosens it. */
const tightened = (name: string, change: (d: any) => void, line: RegExp): RuleCase => ({
  rule: 'request-constraint-tightened',
  name,
  family: 'v1',
  change,
  line,
  reverse: 'request-constraint-loosened',
});

export const CASES: RuleCase[] = [
  tightened(
    'a pattern added to a request field',
    (d) => (payout(d).destinationId.pattern = '^[0-9a-f-]{36}$'),
    /createPayout.*request body: destinationId: pattern added: "\^\[0-9a-f-\]\{36\}\$"/,
  ),
  tightened(
    'a tightened maxLength',
    (d) => (endpoint(d).url.maxLength = 255),
    /createIntegrationEndpoint.*request body: url: maxLength tightened to 255/,
  ),
  tightened(
    'a minLength added',
    (d) => (endpoint(d).name.minLength = 3),
    /createIntegrationEndpoint.*request body: name: minLength added: 3/,
  ),
  tightened(
    'a raised exclusiveMinimum',
    (d) => (onRamp(d).properties.amount.exclusiveMinimum = 1000),
    /createOnRamp.*request body: amount: exclusiveMinimum tightened to 1000/,
  ),
  tightened(
    'an exclusiveMaximum added',
    (d) => (payout(d).amount.exclusiveMaximum = 1e9),
    /createPayout.*request body: amount: exclusiveMaximum added: 1000000000/,
  ),
  tightened(
    'a maximum added',
    (d) => (payout(d).amount.maximum = 1e9),
    /createPayout.*request body: amount: maximum added: 1000000000/,
  ),
  tightened(
    'a multipleOf added',
    (d) => (payout(d).amount.multipleOf = 100),
    /createPayout.*request body: amount: multipleOf added: 100/,
  ),
  tightened(
    'a minItems added',
    (d) => (schemas(d).RegisterUserRequest.properties.supporting_documents.minItems = 1),
    /registerUser.*request body: supporting_documents: minItems added: 1/,
  ),
  {
    rule: 'request-constraint-loosened',
    name: 'a loosened maxLength',
    family: 'v1',
    before: (d) => (endpoint(d).url.maxLength = 255),
    change: (d) => (endpoint(d).url.maxLength = 1024),
    line: /createIntegrationEndpoint.*request body: url: maxLength loosened to 1024/,
  },
  {
    rule: 'response-constraint-loosened',
    name: 'a response limit loosened',
    family: 'business',
    change: (d) => (schemas(d).WalletTransferList.maxItems = 20),
    line: /listWalletTransfers.*response 200: maxItems loosened to 20/,
    reverse: 'response-constraint-tightened',
  },
  {
    rule: 'response-constraint-tightened',
    name: 'a response limit tightened',
    family: 'business',
    change: (d) => (schemas(d).WalletTransferList.maxItems = 5),
    line: /listWalletTransfers.*response 200: maxItems tightened to 5/,
  },
];
