// The rules of a schema's bounds: lengths, counts, numeric limits, `multipleOf`, `pattern` and `uniqueItems`. A
// request's tighten when fewer values pass, a response's loosen when more do.
import { type CompatRule, checkMovements, type Movement, rule, type SchemaPair, same, show } from './rule.js';

/** The constraint keywords and how a change of each moves what passes. */
const BOUNDS: [keyword: string, kind: 'max' | 'min' | 'multipleOf' | 'pattern' | 'flag'][] = [
  ['maxLength', 'max'],
  ['maxItems', 'max'],
  ['maxProperties', 'max'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'max'],
  ['minLength', 'min'],
  ['minItems', 'min'],
  ['minProperties', 'min'],
  ['minimum', 'min'],
  ['exclusiveMinimum', 'min'],
  ['multipleOf', 'multipleOf'],
  ['pattern', 'pattern'],
  ['uniqueItems', 'flag'],
];

function boundChange(kind: (typeof BOUNDS)[number][1], o: any, n: any): { tighter: boolean; looser: boolean } {
  const num = (v: unknown, absent: number) => (typeof v === 'number' ? v : absent);
  switch (kind) {
    case 'max':
      return { tighter: num(n, Infinity) < num(o, Infinity), looser: num(n, Infinity) > num(o, Infinity) };
    case 'min':
      return { tighter: num(n, -Infinity) > num(o, -Infinity), looser: num(n, -Infinity) < num(o, -Infinity) };
    case 'multipleOf':
      // Tighter unless every old multiple is still one (old step a multiple of the new); looser unless every new multiple was one.
      return {
        tighter: n !== undefined && (o === undefined || o % n !== 0),
        looser: o !== undefined && (n === undefined || n % o !== 0),
      };
    case 'pattern':
      return { tighter: n !== undefined, looser: o !== undefined };
    case 'flag':
      return { tighter: n === true && o !== true, looser: o === true && n !== true };
  }
}

function verb(o: unknown, n: unknown, change: { tighter: boolean; looser: boolean }): string {
  if (n === undefined) return `removed (was ${show(o)})`;
  if (o === undefined) return `added: ${show(n)}`;
  if (change.tighter && !change.looser) return `tightened to ${show(n)}`;
  if (change.looser && !change.tighter) return `loosened to ${show(n)}`;
  return `changed from ${show(o)} to ${show(n)}`;
}

function boundMovements({ old, new: next, field }: SchemaPair): Movement[] {
  return BOUNDS.filter(([keyword]) => !same(old[keyword], next[keyword])).map(([keyword, kind]) => {
    const change = boundChange(kind, old[keyword], next[keyword]);
    return { what: `${field}: ${keyword} ${verb(old[keyword], next[keyword], change)}`, ...change };
  });
}

const requestConstraintTightened = rule({
  id: 'request-constraint-tightened',
  description:
    'A bound of a request value admits fewer values: a `max*` lowered or added, a `min*` raised or added, a `multipleOf`, `pattern` or `uniqueItems` added or changed. Values sent before may be refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: checkMovements(boundMovements, (m) => m.tighter),
});

const requestConstraintLoosened = rule({
  id: 'request-constraint-loosened',
  description: 'A bound of a request value admits more values (raised, lowered or removed the other way).',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(boundMovements, (m) => !m.tighter),
});

const responseConstraintLoosened = rule({
  id: 'response-constraint-loosened',
  description:
    'A bound of a response value admits more values (a `max*` raised or removed, a `min*` lowered or removed, a `pattern` changed or removed, ...): readers meet values they were promised not to.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: checkMovements(boundMovements, (m) => m.looser),
});

const responseConstraintTightened = rule({
  id: 'response-constraint-tightened',
  description: 'A bound of a response value admits fewer values.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(boundMovements, (m) => !m.looser),
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestConstraintTightened,
  requestConstraintLoosened,
  responseConstraintLoosened,
  responseConstraintTightened,
];
