// `npm run journeys:report -- FILE_OR_FOLDER... [--out FILE]`, the command over ./monitor.ts: the JSON results of
// several `npm run journeys` runs (`--json FILE`) as one Markdown page of step times and failures across the runs,
// printed or written to FILE. Exit 2 when the command is used wrongly or a file is not such results.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { visibleText } from '../../src/client/usage/visible-text.js';
import { EXIT } from '../../src/sandbox/journeys/command-output.js';
import { monitorReport, readRuns } from './monitor.js';

try {
  const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
  if (!positionals.length)
    throw new Error('Name the JSON files of the runs (or their folder): npm run journeys:report -- runs/');
  const page = monitorReport(readRuns(positionals));
  if (values.out) writeFileSync(values.out, page);
  else process.stdout.write(page);
} catch (error) {
  console.error(visibleText((error as Error).message));
  process.exit(EXIT.usage);
}
