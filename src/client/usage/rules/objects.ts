// The rules of an object closed to undeclared fields (`additionalProperties: false`), or opened again.
import type { JsonObject } from '../../lookup/index.js';
import { type CompatRule, type Report, rule, type SchemaPair } from './rule.js';

const isClosed = (schema: JsonObject) => schema.additionalProperties === false;

const closedNow = ({ old, new: next, field }: SchemaPair, report: Report) => {
  if (isClosed(next) && !isClosed(old))
    report(`${field}: additionalProperties: false added; undeclared fields are now refused`);
};

const requestObjectClosed = rule({
  id: 'request-object-closed',
  description: 'A request object gains `additionalProperties: false`: fields it does not declare are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: closedNow,
});

const responseObjectClosed = rule({
  id: 'response-object-closed',
  description: 'A response object gains `additionalProperties: false`.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: closedNow,
});

const objectOpened = rule({
  id: 'object-opened',
  description: 'An object loses `additionalProperties: false`.',
  direction: 'request or response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: ({ old, new: next, field }, report) => {
    if (isClosed(old) && !isClosed(next)) report(`${field}: additionalProperties: false removed`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [requestObjectClosed, responseObjectClosed, objectOpened];
