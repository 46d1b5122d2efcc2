// The rules of a schema's closed set of values (`enum`, or `const` as a set of one): a request's tightens when
// it closes or loses a value, a response's loosens when it opens or gains one.
import type { JsonObject } from '../../lookup/index.js';
import { type CompatRule, rule, type SchemaPair } from './rule.js';

const enumOf = (schema: JsonObject): unknown[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;

/** The values before and after, each side undefined when the value was open. */
const enums = ({ old, new: next }: SchemaPair) => ({ before: enumOf(old), after: enumOf(next) });
const without = (values: unknown[], others: unknown[]) => values.filter((v) => !others.includes(v));

const closed = (pair: SchemaPair, report: (what: string) => void) => {
  const { before, after } = enums(pair);
  if (after && !before) report(`${pair.field}: now a closed enum (${after.join(', ')})`);
};

const requestEnumAdded = rule({
  id: 'request-enum-added',
  description: 'A request value that took any value is closed to an `enum`: values outside it are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: closed,
});

const responseEnumAdded = rule({
  id: 'response-enum-added',
  description: 'A response value that could be anything is closed to an `enum`.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: closed,
});

/** The check of an enum removed: any value may now arrive, or be sent. */
const opened = (may: string) => (pair: SchemaPair, report: (what: string) => void) => {
  const { before, after } = enums(pair);
  if (before && !after) report(`${pair.field}: enum (${before.join(', ')}) removed; any value may now ${may}`);
};

const responseEnumRemoved = rule({
  id: 'response-enum-removed',
  description: 'A response value closed to an `enum` is opened: any value may arrive.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: opened('arrive'),
});

const requestEnumRemoved = rule({
  id: 'request-enum-removed',
  description: 'A request value closed to an `enum` is opened: any value may be sent.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: opened('be sent'),
});

const valuesRemoved = (pair: SchemaPair, report: (what: string) => void) => {
  const { before, after } = enums(pair);
  const removed = before && after ? without(before, after) : [];
  if (removed.length) report(`${pair.field}: enum value(s) ${removed.join(', ')} removed`);
};

const requestEnumValueRemoved = rule({
  id: 'request-enum-value-removed',
  description: 'A value is removed from the `enum` of a request value: calls that send it are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: valuesRemoved,
});

const responseEnumValueRemoved = rule({
  id: 'response-enum-value-removed',
  description: 'A value is removed from the `enum` of a response value.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: valuesRemoved,
});

const valuesAdded = (pair: SchemaPair) => {
  const { before, after } = enums(pair);
  return before && after ? without(after, before) : [];
};

const responseEnumValueAdded = rule({
  id: 'response-enum-value-added',
  description:
    'A value is added to the closed `enum` of a response value or an event payload: readers that switch over the values meet one they do not know.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: (pair, report) => {
    const added = valuesAdded(pair);
    if (added.length) report(`${pair.field}: enum value(s) ${added.join(', ')} added to a closed enum in a response`);
  },
});

const requestEnumValueAdded = rule({
  id: 'request-enum-value-added',
  description: 'A value is added to the `enum` of a request value.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: (pair, report) => {
    const added = valuesAdded(pair);
    if (added.length) report(`${pair.field}: enum value(s) ${added.join(', ')} added`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestEnumAdded,
  responseEnumAdded,
  responseEnumRemoved,
  requestEnumRemoved,
  requestEnumValueRemoved,
  responseEnumValueRemoved,
  responseEnumValueAdded,
  requestEnumValueAdded,
];
