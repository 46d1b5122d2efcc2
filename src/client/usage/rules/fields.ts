// The rules of an object's fields: removed, added, newly required, or no longer always present.
import type { JsonObject } from '../../lookup/index.js';
import { type CompatRule, type Report, rule, type SchemaPair } from './rule.js';

const props = (schema: JsonObject) => (schema.properties ?? {}) as JsonObject;
const requiredOf = (schema: JsonObject) => new Set<string>(schema.required ?? []);

const removedFields = ({ old, new: next, child }: SchemaPair, report: Report) => {
  for (const name of Object.keys(props(old)))
    if (!(name in props(next))) report(`${child(name)}: field removed`, { name });
};

/** The fields the new schema declares that the old one did not: required ones, or optional ones, or both. */
const addedFields =
  (which: 'required' | 'optional' | 'any') =>
  ({ old, new: next, child }: SchemaPair, report: Report) => {
    const required = requiredOf(next);
    for (const name of Object.keys(props(next))) {
      if (name in props(old)) continue;
      const isRequired = required.has(name);
      if (which === 'any' || (which === 'required') === isRequired)
        report(`${child(name)}: ${isRequired ? 'required' : 'optional'} field added`, {
          name,
          ...(isRequired ? { absent: true } : {}),
        });
    }
  };

const responseFieldRemoved = rule({
  id: 'response-field-removed',
  description: 'A field of a response or an event payload is no longer declared: readers of it find nothing.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: removedFields,
});

const requestFieldRemoved = rule({
  id: 'request-field-removed',
  description: 'A field of a request body is no longer declared.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: removedFields,
});

const requestRequiredFieldAdded = rule({
  id: 'request-required-field-added',
  description: 'A request body gains a required field: every call made before lacks it.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'schema',
  check: addedFields('required'),
});

const requestOptionalFieldAdded = rule({
  id: 'request-optional-field-added',
  description: 'A request body gains an optional field.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: addedFields('optional'),
});

const responseFieldAdded = rule({
  id: 'response-field-added',
  description: 'A response or an event payload gains a field, required or optional.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: addedFields('any'),
});

const requestFieldBecameRequired = rule({
  id: 'request-field-became-required',
  description: 'An optional field of a request body is now required: calls that leave it out are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'schema',
  check: ({ old, new: next, child }, report) => {
    const before = requiredOf(old);
    for (const name of requiredOf(next))
      if (name in props(old) && !before.has(name)) report(`${child(name)}: now required`, { name, absent: true });
  },
});

const responseFieldBecameOptional = rule({
  id: 'response-field-became-optional',
  description:
    'A required field of a response or an event payload is no longer always present: readers find it missing.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: ({ old, new: next, child }, report) => {
    const after = requiredOf(next);
    for (const name of requiredOf(old))
      if (name in props(next) && !after.has(name)) report(`${child(name)}: no longer always present`, { name });
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  responseFieldRemoved,
  requestFieldRemoved,
  requestRequiredFieldAdded,
  requestOptionalFieldAdded,
  responseFieldAdded,
  requestFieldBecameRequired,
  responseFieldBecameOptional,
];
