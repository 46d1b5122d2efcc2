// Every compatibility rule, by the file that holds it, in the order the comparison (../compare.ts) applies them to
// a node, which is the order of a report's lines. The gate's lines, whom a change breaks, `ramp-api usage --check`
// and the compatibility guide's table of rules all come from this list.
import { RULES as alternatives } from './alternatives.js';
import { RULES as bodies } from './bodies.js';
import { RULES as conditions } from './conditions.js';
import { RULES as constraints } from './constraints.js';
import { RULES as defaults } from './defaults.js';
import { RULES as enums } from './enums.js';
import { RULES as fields } from './fields.js';
import { RULES as formats } from './formats.js';
import { RULES as objects } from './objects.js';
import { RULES as operations } from './operations.js';
import { RULES as parameters } from './parameters.js';
import { RULES as responses } from './responses.js';
import type { CompatRule, NodeKind, RuleDirection, Visited } from './rule.js';
import { RULES as security } from './security.js';
import { RULES as types } from './types.js';

/** Each file of rules (`src/client/usage/rules/<file>.ts`) with its rules. */
export const RULE_FILES: { file: string; rules: CompatRule[] }[] = Object.entries({
  operations,
  security,
  parameters,
  bodies,
  responses,
  types,
  formats,
  enums,
  constraints,
  defaults,
  objects,
  conditions,
  fields,
  alternatives,
}).map(([file, rules]) => ({ file, rules }));

export const ALL_RULES: CompatRule[] = RULE_FILES.flatMap((f) => f.rules);

const byId = new Map(ALL_RULES.map((r) => [r.id, r]));

/** The rule of an id a report line carries, or undefined. */
export const ruleById = (id: string): CompatRule | undefined => byId.get(id);

/** Whether a rule applies in the direction a node is compared in. */
const appliesIn = (rule: CompatRule, direction: RuleDirection) =>
  rule.direction === direction || (rule.direction === 'request or response' && direction !== 'operation');

/** The rules that visit a kind of node compared in `direction`, in order, each with its typed check. */
export function rulesFor<K extends NodeKind>(
  kind: K,
  direction: RuleDirection,
): (CompatRule & { check: (pair: Visited[K], report: Parameters<CompatRule['check']>[1]) => void })[] {
  return ALL_RULES.filter((r) => r.on === kind && appliesIn(r, direction)) as never;
}
