// The command `npm run compat`: its options, read once and strictly, and what it does with them: the gate's report
// (with `--consumers DIR`, the consuming teams' usage files and the policy `--fail-on any|consumers|seen`), with
// `--accept [--family NAME]` the current descriptions made the baseline, or with `--explain ID` a rule of the gate
// printed. Its exit status: 0; 1 for a breaking change the policy fails on or a family without a baseline; 2 for bad
// input (an option it does not take, a malformed usage file, an id that is no rule's), with one line naming it.
import { parseArgs } from 'node:util';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { renderCompatReport } from '../../src/client/usage/change-lines.js';
import { oneLine, UsageError } from '../../src/client/usage/errors.js';
import { type ApiFamily, readBundle } from '../openapi/apis.js';
import { acceptBaselines, type BaselineResult, compareWithBaselines, missingBaseline } from './baseline.js';
import { consumerGate, FAIL_ON, type FailOn, readConsumers } from './consumers.js';
import { explainRule } from './explain.js';

export const COMPAT_HELP =
  'Usage: npm run compat [-- --consumers DIR [--fail-on any|consumers|seen]], npm run compat -- --explain ID, or npm run compat:accept [-- --family NAME]';

export interface CompatOptions {
  consumers?: string;
  failOn?: FailOn;
  accept: boolean;
  /** With --accept: the families whose baselines are made (default: all). */
  families: string[];
  /** The id of the rule to print, comparing nothing. */
  explain?: string;
}

/** The command's options; a UsageError for any it does not take or that do not go together. */
export function compatOptions(args: string[]): CompatOptions {
  let values: { consumers?: string; 'fail-on'?: string; accept?: boolean; family?: string[]; explain?: string };
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        consumers: { type: 'string' },
        'fail-on': { type: 'string' },
        accept: { type: 'boolean' },
        family: { type: 'string', multiple: true },
        explain: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} ${COMPAT_HELP}`);
  }
  const failOn = values['fail-on'];
  if (failOn !== undefined && values.consumers === undefined)
    throw new UsageError(`--fail-on goes with --consumers DIR: without usage files every breaking change fails.`);
  if (failOn !== undefined && !FAIL_ON.includes(failOn as FailOn))
    throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}, not ${failOn}.`);
  if (values.accept && values.consumers !== undefined)
    throw new UsageError('--accept makes the baseline and reads no usage files: drop --consumers.');
  if (values.family && !values.accept) throw new UsageError('--family NAME goes with --accept.');
  if (values.explain !== undefined && Object.keys(values).length > 1)
    throw new UsageError('--explain ID prints a rule and compares nothing: it takes no other option.');
  return {
    ...(values.explain === undefined ? {} : { explain: values.explain }),
    ...(values.consumers === undefined ? {} : { consumers: values.consumers, failOn: (failOn ?? 'any') as FailOn }),
    accept: Boolean(values.accept),
    families: values.family ?? [],
  };
}

export interface CompatSetup {
  /** Bundles the descriptions (when they are not current) and returns the families. */
  bundle: () => ApiFamily[];
  baselineDir?: string;
  /** Where the report goes (console.log for the command). */
  log: (text: string) => void;
  /** Where the errors go (console.error for the command). */
  error: (text: string) => void;
}

function accept(apis: ApiFamily[], families: string[], setup: CompatSetup): number {
  const unknown = families.filter((name) => !apis.some((api) => api.name === name));
  if (unknown.length)
    throw new UsageError(`--family takes ${apis.map((a) => a.name).join(', ')}, not ${unknown.join(', ')}.`);
  const chosen = families.length ? apis.filter((api) => families.includes(api.name)) : apis;
  const written = acceptBaselines(chosen, setup.baselineDir);
  setup.log(`Baseline updated: ${written.join(', ')}. Commit it with the release.`);
  return 0;
}

/** The plain gate's report: every change, and a count of the breaking ones. */
function plainGate(results: BaselineResult[], setup: CompatSetup): number {
  setup.log(renderCompatReport(results));
  const breaking = results.reduce((n, r) => n + r.changes.filter((c) => c.breaking).length, 0);
  if (!breaking) return 0;
  setup.error(
    `\n${breaking} breaking change(s). If they are intended, release a new version and run \`npm run compat:accept\`.`,
  );
  return 1;
}

async function gateWithConsumers(results: BaselineResult[], options: CompatOptions, setup: CompatSetup) {
  const usages = await readConsumers(options.consumers!);
  const gate = consumerGate(results, usages, options.failOn!);
  setup.log(gate.text);
  if (!gate.failing) return 0;
  setup.error(`\n${gate.failing} breaking change(s) fail the gate (--fail-on ${options.failOn}).`);
  return 1;
}

async function run(args: string[], setup: CompatSetup): Promise<number> {
  const options = compatOptions(args);
  if (options.explain !== undefined) {
    setup.log(explainRule(options.explain));
    return 0;
  }
  const apis = setup.bundle();
  if (options.accept) return accept(apis, options.families, setup);
  const current = new Map<string, OpenApiDocument>(apis.map((api) => [api.name, readBundle(api)]));
  const { results, missing } = compareWithBaselines(current, setup.baselineDir);
  const code =
    options.consumers === undefined ? plainGate(results, setup) : await gateWithConsumers(results, options, setup);
  for (const family of missing) setup.error(missingBaseline(family, setup.baselineDir));
  return missing.length ? 1 : code;
}

/** `npm run compat` with `args`: its exit status. */
export async function runCompat(args: string[], setup: CompatSetup): Promise<number> {
  try {
    return await run(args, setup);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    setup.error(oneLine(error));
    return 2;
  }
}
