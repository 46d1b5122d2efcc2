// The rule of a schema's `default`: a caller that leaves the value out gets another behaviour, with the same wire.
import { type CompatRule, rule, same, show } from './rule.js';

const defaultChanged = rule({
  id: 'default-changed',
  description:
    'A `default` is added, changed or removed: requests that leave the value out, and readers that assume it, get another behaviour while the wire stays the same.',
  direction: 'request or response',
  verdict: 'notice',
  breaks: 'nobody',
  on: 'schema',
  check: ({ old, new: next, field }, report) => {
    if (same(old.default, next.default)) return;
    const how =
      old.default === undefined
        ? `added: ${show(next.default)}`
        : next.default === undefined
          ? `removed (was ${show(old.default)})`
          : `changed from ${show(old.default)} to ${show(next.default)}`;
    report(`${field}: default ${how}`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [defaultChanged];
