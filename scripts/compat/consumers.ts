// The compatibility gate with the consuming teams' usage files (`npm run compat -- --consumers DIR`): each
// breaking change names the consumers it breaks, with the file:line of their use, the consumers it may break
// (a request body built at run time, with the reason), or says that no known consumer uses what changed; the
// policy decides which may pass; a usage file built against other descriptions than the baseline is named; and
// what no known consumer uses is listed, the candidates for deprecation.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { affectedBy, describeAffected, seen } from '../../src/client/usage/affected.js';
import { familyBundle, otherDescriptions } from '../../src/client/usage/bundles.js';
import type { Change } from '../../src/client/usage/change.js';
import { changeMark, changeText } from '../../src/client/usage/change-lines.js';
import { UsageFormatError } from '../../src/client/usage/errors.js';
import { unusedIn } from '../../src/client/usage/unused.js';
import { readUsageFile, type UsageFile } from '../../src/client/usage/usage-file.js';
import { visibleText } from '../../src/client/usage/visible-text.js';

/**
 * `any`: fail on any breaking change (the default). `consumers`: fail only on one that breaks or may break a
 * known consumer. `seen`: fail only on one seen to break a known consumer (not one it only may break).
 */
export type FailOn = 'any' | 'consumers' | 'seen';
export const FAIL_ON: readonly FailOn[] = ['any', 'consumers', 'seen'];

/** Whether the policy fails on a breaking change that affects these consumers. */
const fails = (failOn: FailOn, affected: ReturnType<typeof affectedBy>) =>
  failOn === 'any' || (failOn === 'seen' ? affected.some(seen) : affected.length > 0);

/** Every usage file (`*.json`) in `dir`, each checked against the usage file's schema. */
export async function readConsumers(dir: string): Promise<UsageFile[]> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile());
  } catch {
    throw new UsageFormatError(`${dir} is not a folder of usage files.`);
  }
  if (!files.length) throw new UsageFormatError(`${dir} holds no usage files (*.json).`);
  const usages: UsageFile[] = [];
  for (const file of files.sort()) {
    const usage = await readUsageFile(join(dir, file));
    const twin = usages.find((u) => u.consumer === usage.consumer);
    if (twin)
      throw new UsageFormatError(
        `${join(dir, file)} names the consumer ${usage.consumer} again: one file per consumer.`,
      );
    usages.push(usage);
  }
  return usages;
}

export interface FamilyResult {
  api: string;
  changes: Change[];
  /** The family's current bundle (what the unused list is taken from). */
  current: OpenApiDocument;
  /** The digest of the baseline's bytes, which each usage file's digest of the family is compared with. */
  baselineDigest?: string;
}

export interface ConsumerGate {
  text: string;
  /** Breaking changes the policy fails on. */
  failing: number;
}

/** A line for each usage file built against other descriptions of a family than the baseline. */
function builtAgainstOthers(results: FamilyResult[], usages: UsageFile[]): string[] {
  return usages.flatMap((usage) =>
    results.flatMap(({ api, baselineDigest }) => {
      const built = usage.descriptions[api];
      if (!built || !baselineDigest || built === baselineDigest) return [];
      return [`${otherDescriptions(usage.consumer, api, built, baselineDigest, "the baseline's")}.`];
    }),
  );
}

/** The gate's report with the consumers: each change, whom a breaking one breaks, then what nobody uses. */
export function consumerGate(results: FamilyResult[], usages: UsageFile[], failOn: FailOn): ConsumerGate {
  const lines = [
    `Known consumers: ${usages.map((u) => u.consumer).join(', ')}. Policy: --fail-on ${failOn}.`,
    ...builtAgainstOthers(results, usages),
  ];
  let failing = 0;
  for (const { api, changes } of results) {
    const breaking = changes.filter((c) => c.breaking);
    lines.push(`${api}: ${breaking.length} breaking, ${changes.length - breaking.length} other change(s)`);
    for (const change of changes) {
      lines.push(`  ${changeMark(change)}  ${changeText(change)}`);
      if (!change.breaking) continue;
      const affected = affectedBy(change, api, usages);
      lines.push(`            ${describeAffected(affected)}`);
      if (fails(failOn, affected)) failing++;
    }
  }
  lines.push('', 'Not used by any known consumer (candidates for deprecation):');
  for (const { api, current } of results) {
    const unused = unusedIn(familyBundle(api, current), usages);
    lines.push(
      `  ${api}: ${unused.operations.length} operation(s), ${unused.events.length} event(s), ${unused.fields.length} response or payload field(s)`,
      ...unused.operations.map((o) => `    operation ${o}`),
      ...unused.events.map((e) => `    event ${e}`),
      ...unused.fields.map((f) => `    field ${f}`),
    );
  }
  return { text: lines.map(visibleText).join('\n'), failing };
}
