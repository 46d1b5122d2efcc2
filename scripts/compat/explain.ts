// What `npm run compat -- --explain ID` prints: a rule of the gate (src/client/usage/rules/) as a reader of a
// report line wants it, with the file that holds it; and the one line for an id that is no rule's.
import { UsageError } from '../../src/client/usage/errors.js';
import { ALL_RULES, RULE_FILES, ruleById } from '../../src/client/usage/rules/index.js';
import type { Breaks, CompatRule } from '../../src/client/usage/rules/rule.js';

/** What each value of a rule's `breaks` means for a consuming team. */
export const BREAKS_MEANING: Record<Breaks, string> = {
  callers: 'every call of the operation (or every handler of the event)',
  senders: 'the calls that send the changed parameter or request field',
  readers: 'the code that reads the changed response or payload field, or a value above it',
  nobody: 'nothing on the wire',
};

/** The file of `src/client/usage/rules/` that holds a rule. */
const ruleFile = (rule: CompatRule) =>
  `src/client/usage/rules/${RULE_FILES.find((f) => f.rules.includes(rule))!.file}.ts`;

/** The rule of `id`, in a few lines; a UsageError naming the known ids when there is none. */
export function explainRule(id: string): string {
  const rule = ruleById(id);
  if (!rule) throw new UsageError(`--explain takes a rule's id (${ALL_RULES.map((r) => r.id).join(', ')}), not ${id}.`);
  return [
    rule.id,
    `  ${rule.description}`,
    `  Direction: ${rule.direction}`,
    `  Verdict: ${rule.verdict}`,
    `  Breaks: ${rule.breaks} (${BREAKS_MEANING[rule.breaks]})`,
    `  Rule and its cases: ${ruleFile(rule)}`,
  ].join('\n');
}
