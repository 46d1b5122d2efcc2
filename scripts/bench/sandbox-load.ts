// `npm run sandbox:load [-- --clients N --seconds S]`: two sandboxes on one throwaway PostgreSQL, virtual
// clients running full flows across both, healthy and failing webhook receivers, one instance SIGKILLed
// half-way; then prints the checks (PASS/FAIL) and the figures. Exit 0 only when every check holds; 2 when
// PostgreSQL is not installed. Loopback only; bounded in time; everything it starts is stopped.

import { parseArgs } from 'node:util';
import {
  createDatabase,
  type PostgresCluster,
  postgresUnavailable,
  startPostgres,
} from '../../src/testing/postgres.js';
import { bundleAll } from '../openapi/bundle.js';
import { checkLoadOptions, MAX_CLIENTS, MAX_SECONDS, runLoad } from './load.js';
import { stopAll } from './load-cluster.js';
import { formatReport } from './load-report.js';

const USAGE = `Usage: npm run sandbox:load -- [--clients N] [--seconds S]

  --clients N   concurrent virtual clients, 1 to ${MAX_CLIENTS} (default 8)
  --seconds S   seconds of load, 1 to ${MAX_SECONDS} (default 20); one instance is killed half-way
`;

function parse(args: string[]): { clients: number; seconds: number } {
  const { values } = parseArgs({
    args,
    options: { clients: { type: 'string' }, seconds: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const options = { clients: Number(values.clients ?? 8), seconds: Number(values.seconds ?? 20) };
  checkLoadOptions(options);
  return options;
}

let options: { clients: number; seconds: number };
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const why = postgresUnavailable();
if (why) {
  console.error(`sandbox:load needs PostgreSQL: ${why}.`);
  process.exit(2);
}

let cluster: PostgresCluster | undefined;
let finished = false;
async function shutdown(code: number, reason?: string): Promise<never> {
  if (reason) console.error(reason);
  await stopAll();
  try {
    cluster?.stop();
  } catch (error) {
    console.error(`Stopping PostgreSQL: ${(error as Error).message}`);
  }
  process.exit(code);
}
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and a second
// SIGINT with no listener would end it half-way through stopping what it started.
let stopping = false;
const onSignal = (code: number, what: string) => () => {
  if (stopping) return;
  stopping = true;
  void shutdown(code, `${what}: stopping everything sandbox:load started.`);
};
process.on('SIGINT', onSignal(130, 'Interrupted'));
process.on('SIGTERM', onSignal(143, 'Terminated'));
// The hard bound: the load, two sandbox starts, the drain and the checks fit well inside it.
const limitMs = (options.seconds + 180) * 1000;
const watchdog = setTimeout(() => {
  if (!finished) void shutdown(1, `sandbox:load did not finish within ${limitMs / 1000} s: stopped.`);
}, limitMs);

try {
  bundleAll();
  cluster = await startPostgres();
  const databaseUrl = await createDatabase(cluster.url, 'load');
  console.log(
    `sandbox:load: ${options.clients} clients for ${options.seconds} s; PostgreSQL at ${new URL(databaseUrl).host}.`,
  );
  const report = await runLoad({ databaseUrl, ...options, log: (line) => console.log(line) });
  finished = true;
  console.log('');
  console.log(formatReport(report));
  clearTimeout(watchdog);
  await shutdown(report.passed ? 0 : 1);
} catch (error) {
  finished = true;
  await shutdown(1, `sandbox:load failed: ${(error as Error).stack ?? String(error)}`);
}
