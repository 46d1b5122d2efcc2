// The rules of an operation's parameters, each named by where it goes and its name (`query userId`); their schemas
// are compared by the schema rules in the request direction.
import { type CompatRule, rule } from './rule.js';

const parameterRemoved = rule({
  id: 'parameter-removed',
  description:
    'A parameter is gone from the operation: typed clients lose its key, and calls that pass it no longer compile.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'parameter',
  check: ({ key, new: next }, report) => {
    if (!next) report(`parameter ${key} removed`);
  },
});

const parameterBecameRequired = rule({
  id: 'parameter-became-required',
  description: 'An optional parameter is now required: calls that leave it out are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'parameter',
  check: ({ key, old, new: next }, report) => {
    if (old && next?.required && !old.required) report(`parameter ${key} is now required`);
  },
});

const requiredParameterAdded = rule({
  id: 'required-parameter-added',
  description: 'A new parameter, required: every call made before lacks it.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'parameter',
  check: ({ key, old, new: next }, report) => {
    if (!old && next?.required) report(`required parameter ${key} added`);
  },
});

const optionalParameterAdded = rule({
  id: 'optional-parameter-added',
  description: 'A new parameter, optional.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'parameter',
  check: ({ key, old, new: next }, report) => {
    if (!old && next && !next.required) report(`optional parameter ${key} added`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  parameterRemoved,
  parameterBecameRequired,
  requiredParameterAdded,
  optionalParameterAdded,
];
