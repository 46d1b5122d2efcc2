// The rules of a schema's alternatives (`oneOf`, `anyOf`), compared by position: a request's tighten when one is
// removed, a response's loosen when one is added. The alternatives both keep are compared by the schema rules.
import { type AlternativesPair, type CompatRule, rule } from './rule.js';

const added = ({ keyword, old, new: next, field }: AlternativesPair, report: (what: string) => void) => {
  if (next.length > old.length) report(`${field}: ${keyword} alternative(s) added`);
};
const removed = ({ keyword, old, new: next, field }: AlternativesPair, report: (what: string) => void) => {
  if (next.length < old.length) report(`${field}: ${keyword} alternative(s) removed`);
};

const responseAlternativeAdded = rule({
  id: 'response-alternative-added',
  description: 'A response value gains a `oneOf` or `anyOf` alternative: readers meet a shape they do not know.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'alternatives',
  check: added,
});

const requestAlternativeAdded = rule({
  id: 'request-alternative-added',
  description: 'A request value gains a `oneOf` or `anyOf` alternative.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'alternatives',
  check: added,
});

const requestAlternativeRemoved = rule({
  id: 'request-alternative-removed',
  description: 'A request value loses a `oneOf` or `anyOf` alternative: calls that send that shape are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'alternatives',
  check: removed,
});

const responseAlternativeRemoved = rule({
  id: 'response-alternative-removed',
  description: 'A response value loses a `oneOf` or `anyOf` alternative.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'alternatives',
  check: removed,
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  responseAlternativeAdded,
  requestAlternativeAdded,
  requestAlternativeRemoved,
  responseAlternativeRemoved,
];
