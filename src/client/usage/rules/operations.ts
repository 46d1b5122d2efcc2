// The rules of an operation or an event as a whole: removed, added, renamed, or given another operationId.
import { type CompatRule, rule } from './rule.js';

const operationRemoved = rule({
  id: 'operation-removed',
  description: 'An operation of the old description has no counterpart (same method and path) in the new one.',
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'operation',
  check: (pair, report) => {
    if (!pair.new) report('operation removed (or its path or method changed)');
  },
});

const pathParameterRenamed = rule({
  id: 'path-parameter-renamed',
  description:
    'A path parameter was renamed (`/x/{user_id}` to `/x/{userId}`): the route is the same, but typed clients pass path parameters by name.',
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'operation',
  check: ({ old, new: next, renamed }, report) => {
    if (!old || !next || !renamed.size) return;
    const list = [...renamed].map(([from, to]) => `{${from}} to {${to}}`).join(', ');
    report(`path parameter renamed: ${list} (was ${old.path}); typed clients pass path parameters by name`);
  },
});

const operationIdChanged = rule({
  id: 'operation-id-changed',
  description: "An operation's operationId changed: the typed clients' method names come from it.",
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'operation',
  check: ({ old, new: next }, report) => {
    if (old && next && old.operationId !== next.operationId)
      report(`operationId changed from ${old.operationId} to ${next.operationId}`);
  },
});

const operationAdded = rule({
  id: 'operation-added',
  description: 'An operation of the new description has no counterpart in the old one.',
  direction: 'operation',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'operation',
  check: (pair, report) => {
    if (!pair.old) report('operation added');
  },
});

const eventRemoved = rule({
  id: 'event-removed',
  description: 'An event (`webhooks:`) of the old description is gone from the new one: its handlers wait for nothing.',
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'event',
  check: (pair, report) => {
    if (!pair.new) report('event removed');
  },
});

const eventAdded = rule({
  id: 'event-added',
  description: 'An event of the new description has no counterpart in the old one.',
  direction: 'operation',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'event',
  check: (pair, report) => {
    if (!pair.old) report('event added');
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  operationRemoved,
  pathParameterRenamed,
  operationIdChanged,
  operationAdded,
  eventRemoved,
  eventAdded,
];
