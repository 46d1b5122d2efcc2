// `ramp-api usage [--project DIR] [--name NAME] [--out FILE] [--check NEW]`: writes the project's usage file,
// and with --check, says what of the project the descriptions NEW break (exit 1 if anything). Bad input: one
// line naming the error, exit status 2, and no file half written.
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkUsage, loadTarget } from './check.js';
import { oneLine, UsageError } from './errors.js';
import { extractUsage } from './extract.js';
import { serializeUsage } from './format.js';

export const USAGE_HELP =
  'Usage: ramp-api usage [--project DIR] [--name NAME] [--out FILE] [--check NEW]   (writes DIR/ramp-api-usage.json by default; NEW is a bundle file, a URL or the folder of a newer ramp-api)';

/** Writes `text` to `file` whole or not at all: to a temporary file beside it, then renamed over it. */
export function writeWhole(file: string, text: string): void {
  const temporary = join(dirname(file), `.${process.pid}.${Date.now()}.usage.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

export async function runUsage(args: string[]): Promise<number> {
  let values: { project?: string; name?: string; out?: string; check?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        project: { type: 'string' },
        name: { type: 'string' },
        out: { type: 'string' },
        check: { type: 'string' },
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
    const projectDir = resolve(values.project ?? '.');
    const { usage, families } = await extractUsage({ projectDir, ...(values.name ? { name: values.name } : {}) });
    const next = values.check === undefined ? undefined : await loadTarget(values.check, families);
    const out = resolve(values.out ?? join(projectDir, 'ramp-api-usage.json'));
    writeWhole(out, serializeUsage(usage));
    console.error(`Wrote ${out}: ${usage.operations.length} operation(s), ${usage.events.length} event(s).`);
    if (!next) return 0;
    const result = checkUsage(usage, families, next);
    console.log(result.lines.join('\n'));
    return result.breaking ? 1 : 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(oneLine(error));
    return 2;
  }
}
