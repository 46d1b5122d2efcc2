// The rules of a schema's conditional requirement (`if`/`then`/`else`): a request's tightens when one is added or
// changed, a response's loosens when one is removed or changed.
import { type CompatRule, checkMovements, type Movement, rule, type SchemaPair, same, show } from './rule.js';

const describe = (s: Record<string, any>) =>
  s.if ? `if ${show(s.if)} then ${show(s.then ?? {})}${s.else ? ` else ${show(s.else)}` : ''}` : 'none';

function conditionMovement({ old, new: next, field }: SchemaPair): Movement[] {
  if (same(old.if, next.if) && same(old.then, next.then) && same(old.else, next.else)) return [];
  const how = old.if ? (next.if ? 'changed' : 'removed') : 'added';
  const what = `${field}: conditional requirement (if/then) ${how}: ${describe(next.if ? next : old)}`;
  return [{ what, tighter: Boolean(next.if), looser: Boolean(old.if) }];
}

const requestConditionTightened = rule({
  id: 'request-condition-tightened',
  description: 'A request value gained a conditional requirement (`if`/`then`), or its condition changed.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: checkMovements(conditionMovement, (m) => m.tighter),
});

const requestConditionLoosened = rule({
  id: 'request-condition-loosened',
  description: 'A request value lost its conditional requirement.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(conditionMovement, (m) => !m.tighter),
});

const responseConditionLoosened = rule({
  id: 'response-condition-loosened',
  description: 'A response value lost its conditional requirement, or its condition changed: readers relied on it.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: checkMovements(conditionMovement, (m) => m.looser),
});

const responseConditionTightened = rule({
  id: 'response-condition-tightened',
  description: 'A response value gained a conditional requirement.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(conditionMovement, (m) => !m.looser),
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestConditionTightened,
  requestConditionLoosened,
  responseConditionLoosened,
  responseConditionTightened,
];
