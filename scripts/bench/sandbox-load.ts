// `npm run sandbox:load [-- --clients N --seconds S]`: two sandboxes on one throwaway PostgreSQL, virtual
// clients running full flows across both, healthy and failing webhook receivers, one instance SIGKILLed
// half-way; then prints the checks (PASS/FAIL) and the figures. Exit 0 only when every check holds; 2 when
// PostgreSQL is not installed. Loopback only; bounded in time; everything it starts is stopped.
import { parseArgs } from 'node:util';
import { createDatabase, postgresUnavailable, startPostgres } from '../../src/testing/postgres.js';
import { bundleAll } from '../openapi/bundle.js';
import { checkLoadOptions, MAX_CLIENTS, MAX_SECONDS, runLoad } from './load.js';
import { formatReport } from './load-report.js';

const USAGE = `Usage: npm run sandbox:load -- [--clients N] [--seconds S]

  --clients N   concurrent virtual clients, 1 to ${MAX_CLIENTS} (default 8)
  --seconds S   seconds of load, 1 to ${MAX_SECONDS} (default 20); one instance is killed half-way
`;

/**
 * Ends the run, however it ends: PostgreSQL is stopped by its exit hook (src/testing/postgres.ts), the sandboxes by
 * the watchdog (src/testing/watchdog.ts), the receivers with this process.
 */
function end(code: number, reason?: string): never {
  if (reason) (code ? console.error : console.log)(reason);
  process.exit(code);
}

let options = { clients: 8, seconds: 20 };
try {
  const { values } = parseArgs({
    options: { clients: { type: 'string' }, seconds: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) end(0, USAGE);
  options = { clients: Number(values.clients ?? options.clients), seconds: Number(values.seconds ?? options.seconds) };
  checkLoadOptions(options);
} catch (error) {
  end(2, `${(error as Error).message}\n\n${USAGE}`);
}
const why = postgresUnavailable();
if (why) end(2, `sandbox:load needs PostgreSQL: ${why}.`);
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and a second
// SIGINT with no listener would end it half-way through stopping what it started.
process.on('SIGINT', () => end(130, 'Interrupted: stopping everything sandbox:load started.'));
process.on('SIGTERM', () => end(143, 'Terminated: stopping everything sandbox:load started.'));
// The hard bound: the load, two sandbox starts, the drain and the checks fit well inside it.
const limitMs = (options.seconds + 180) * 1000;
setTimeout(() => end(1, `sandbox:load did not finish within ${limitMs / 1000} s: stopped.`), limitMs).unref();

try {
  bundleAll();
  const databaseUrl = await createDatabase((await startPostgres()).url, 'load');
  console.log(
    `sandbox:load: ${options.clients} clients for ${options.seconds} s; PostgreSQL at ${new URL(databaseUrl).host}.`,
  );
  const report = await runLoad({ databaseUrl, ...options, log: (line) => console.log(line) });
  console.log(`\n${formatReport(report)}`);
  end(report.passed ? 0 : 1);
} catch (error) {
  end(1, `sandbox:load failed: ${(error as Error).stack ?? String(error)}`);
}
