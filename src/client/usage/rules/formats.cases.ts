// The changes each rule of formats.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const endpoint = (d: any) => schemas(d).CreateIntegrationEndpointRequest.properties;

export const CASES: RuleCase[] = [
  {
    rule: 'request-format-tightened',
    name: 'a new format on a request field',
    family: 'v1',
    change: (d) => (endpoint(d).name.format = 'email'),
    line: /createIntegrationEndpoint.*request body: name: format added: email/,
    reverse: 'request-format-loosened',
  },
  {
    rule: 'request-format-loosened',
    name: 'a format dropped from a request field',
    family: 'v1',
    before: (d) => (endpoint(d).name.format = 'email'),
    change: (d) => delete endpoint(d).name.format,
    line: /createIntegrationEndpoint.*request body: name: format dropped \(was email\)/,
  },
  {
    rule: 'response-format-loosened',
    name: 'a format dropped from a response field',
    family: 'v1',
    change: (d) => delete schemas(d).Payout.properties.id.format,
    line: /createPayout.*response 201: id: format dropped \(was uuid\)/,
    reverse: 'response-format-tightened',
  },
  {
    rule: 'response-format-tightened',
    name: 'a new format on a response field',
    family: 'v1',
    before: (d) => delete schemas(d).Payout.properties.id.format,
    change: (d) => (schemas(d).Payout.properties.id.format = 'uuid'),
    line: /createPayout.*response 201: id: format added: uuid/,
  },
];
