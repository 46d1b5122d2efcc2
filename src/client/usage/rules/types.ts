// The rules of a schema's `type`: a request's narrows when a type it took is gone (a `number` still takes
// integers), a response's widens when a type is added (`null` included).
import type { JsonObject } from '../../lookup/index.js';
import { type CompatRule, type Report, rule, type SchemaPair } from './rule.js';

const typesOf = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];

/** The types a schema stated before and now, and those removed and added (an integer is still a number). */
function typeChange({ old, new: next }: SchemaPair, direction: 'request' | 'response') {
  const before = typesOf(old);
  const after = typesOf(next);
  const removed = before.filter((t) => !after.includes(t) && !(t === 'integer' && after.includes('number')));
  const added = after.filter(
    (t) => !before.includes(t) && !(t === 'number' && before.includes('integer') && direction === 'request'),
  );
  return { before, after, removed, added };
}

const requestTypeNarrowed = rule({
  id: 'request-type-narrowed',
  description: 'A request value takes fewer types than before (a type removed, or a type stated where any was taken).',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: (pair, report: Report) => {
    const { before, after, removed } = typeChange(pair, 'request');
    if (before.length && after.length && removed.length)
      report(`${pair.field}: type narrowed from ${before.join('|')} to ${after.join('|')}`);
    else if (!before.length && after.length) report(`${pair.field}: type narrowed from any to ${after.join('|')}`);
  },
});

const responseTypeWidened = rule({
  id: 'response-type-widened',
  description: 'A response value may be of a type it could not be before (`null` included): readers do not expect it.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: (pair, report) => {
    const { before, after, added } = typeChange(pair, 'response');
    if (!before.length || !after.length || !added.length) return;
    const nullable = added.includes('null') ? ' (nullable)' : '';
    report(
      `${pair.field}: type widened from ${before.join('|')} to ${after.join('|')}${nullable}; clients do not expect ${added.join('|')}`,
    );
  },
});

const responseTypeNarrowed = rule({
  id: 'response-type-narrowed',
  description: 'A response value is of fewer types than before.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: (pair, report) => {
    const { before, after, removed, added } = typeChange(pair, 'response');
    if (before.length && after.length && removed.length && !added.length)
      report(`${pair.field}: type narrowed to ${after.join('|')}`);
  },
});

const requestTypeWidened = rule({
  id: 'request-type-widened',
  description: 'A request value takes more types than before.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: (pair, report) => {
    const { before, after, removed, added } = typeChange(pair, 'request');
    if (before.length && after.length && added.length && !removed.length)
      report(`${pair.field}: now also accepts ${added.join('|')}`);
  },
});

const typeDropped = (pair: SchemaPair, report: Report) => {
  const before = typesOf(pair.old);
  if (before.length && !typesOf(pair.new).length)
    report(`${pair.field}: type no longer stated (was ${before.join('|')})`);
};

const responseTypeDropped = rule({
  id: 'response-type-dropped',
  description: 'A response value no longer states its type: any value may arrive.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: typeDropped,
});

const requestTypeDropped = rule({
  id: 'request-type-dropped',
  description: 'A request value no longer states its type: any value is taken.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: typeDropped,
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestTypeNarrowed,
  responseTypeWidened,
  responseTypeNarrowed,
  requestTypeWidened,
  responseTypeDropped,
  requestTypeDropped,
];
