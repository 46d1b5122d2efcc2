// `ramp-api usage [--project DIR] [--name NAME] [--out FILE] [--check NEW [--from FILE]]`: writes the project's
// usage file, and with --check, says what of the project the descriptions NEW (a newer ramp-api's tarball or
// folder, or a bundle; a file or a URL) break (exit 1 if anything); with --from, of the usage file an earlier run
// wrote, without reading the project again. Bad input: one line naming the error, exit status 2, and no file half
// written.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CheckResult, checkUsage, readTarget, targetFamilies } from './check.js';
import { oneLine, UsageError } from './errors.js';
import { extractUsage } from './extract.js';
import { outputFile, writeWhole } from './out-file.js';
import { savedUsage } from './saved.js';
import { serializeUsage } from './usage-file.js';

const USAGE_HELP =
  'Usage: ramp-api usage [--project DIR] [--name NAME] [--out FILE] [--check NEW [--from FILE]]   (writes DIR/ramp-api-usage.json by default; NEW is a newer ramp-api: its package tarball (ramp-api-X.Y.Z.tgz, as npm pack makes it) or the URL of the tarball, its folder, or a bundle file (JSON or YAML) or its URL; --from checks the usage file FILE an earlier run wrote instead of reading the project again)';

interface Options {
  project?: string;
  name?: string;
  out?: string;
  check?: string;
  from?: string;
  help?: boolean;
}

function report(result: CheckResult): number {
  console.log(result.lines.join('\n'));
  return result.breaking ? 1 : 0;
}

async function usageCommand(values: Options): Promise<number> {
  const projectDir = resolve(values.project ?? '.');
  if (
    values.from !== undefined &&
    (values.check === undefined || values.out !== undefined || values.name !== undefined)
  )
    throw new UsageError(
      '--from FILE goes with --check NEW alone: it checks a usage file written earlier, and writes none.',
    );
  // The target first: one that is no description is refused before the seconds the project's analysis takes.
  const target = values.check === undefined ? undefined : await readTarget(values.check);
  if (target && values.from !== undefined) {
    const { usage, families } = await savedUsage(resolve(values.from), projectDir);
    return report(checkUsage(usage, families, targetFamilies(target, families)));
  }
  // Where to write, refused before the seconds the analysis takes.
  const out = outputFile(resolve(values.out ?? join(projectDir, 'ramp-api-usage.json')));
  const { usage, families } = await extractUsage({ projectDir, ...(values.name ? { name: values.name } : {}) });
  const next = target && targetFamilies(target, families);
  writeWhole(out, serializeUsage(usage));
  console.error(`Wrote ${out}: ${usage.operations.length} operation(s), ${usage.events.length} event(s).`);
  return next ? report(checkUsage(usage, families, next)) : 0;
}

export async function runUsage(args: string[]): Promise<number> {
  let values: Options;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        project: { type: 'string' },
        name: { type: 'string' },
        out: { type: 'string' },
        check: { type: 'string' },
        from: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    console.error(`UsageError: ${(error as Error).message} ${USAGE_HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE_HELP);
    return 0;
  }
  try {
    return await usageCommand(values);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(oneLine(error));
    return 2;
  }
}
