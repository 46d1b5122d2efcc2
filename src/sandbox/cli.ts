// `ramp-api sandbox [--port N] [--host ADDR] [--data DIR] [--memory]`: starts the sandbox (127.0.0.1 by
// default) until SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkExposure, startSandbox, type Sandbox } from './server.js';

export const USAGE = `Usage: ramp-api sandbox [--port N] [--host ADDR] [--admin-token-file FILE] [--data DIR] [--memory] [--database-url URL]

  --port N                 port (default SANDBOX_PORT, else a free port)
  --host ADDR              address to listen on (default SANDBOX_HOST, else 127.0.0.1); any address that is
                           not loopback needs an admin token
  --admin-token-file FILE  the control API's admin token, read from FILE (default SANDBOX_ADMIN_TOKEN); with
                           one, control calls need it (or a tenant's own token for that tenant's records).
                           There is no --admin-token: a command line is visible to every user of the machine.
  --data DIR               where the state is kept (default .ramp-sandbox/ in the working directory)
  --memory                 keep nothing on disk
  --database-url URL       keep the state in this PostgreSQL server instead (default DATABASE_URL)
`;

export interface CliOptions {
  port: number;
  host: string;
  /** The admin token (from SANDBOX_ADMIN_TOKEN or --admin-token-file), or undefined. */
  adminToken: string | undefined;
  dataDir: string | null;
  databaseUrl: string | null;
}

/** A refusal to start that is the caller's to fix (exit status 2), as opposed to a failure (1). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(args: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliOptions {
  let port = env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : 0;
  let dataDir: string | null = resolve(cwd, '.ramp-sandbox');
  let databaseUrl: string | null = env.DATABASE_URL || null;
  let host = env.SANDBOX_HOST || '127.0.0.1';
  let adminToken: string | undefined = env.SANDBOX_ADMIN_TOKEN || undefined;
  const tokenFile = (file: string) => {
    try {
      return readFileSync(resolve(cwd, file), 'utf8').replace(/\r?\n$/, '');
    } catch (cause) {
      throw new UsageError(`--admin-token-file: cannot read ${file} (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value.\n\n${USAGE}`);
      return next;
    };
    if (arg === '--port') port = Number(value());
    else if (arg.startsWith('--port=')) port = Number(arg.slice(7));
    else if (arg === '--data') dataDir = resolve(cwd, value());
    else if (arg.startsWith('--data=')) dataDir = resolve(cwd, arg.slice(7));
    else if (arg === '--memory') dataDir = null;
    else if (arg === '--host') host = value();
    else if (arg.startsWith('--host=')) host = arg.slice(7);
    else if (arg === '--admin-token-file') adminToken = tokenFile(value());
    else if (arg.startsWith('--admin-token-file=')) adminToken = tokenFile(arg.slice(19));
    else if (arg === '--admin-token' || arg.startsWith('--admin-token=')) {
      throw new UsageError(`There is no --admin-token: a command line is visible to every user of the machine (ps). Use SANDBOX_ADMIN_TOKEN or --admin-token-file FILE.`);
    }
    else if (arg === '--database-url') databaseUrl = value();
    else if (arg.startsWith('--database-url=')) databaseUrl = arg.slice(15);
    else throw new Error(`Unknown option ${arg}.\n\n${USAGE}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${String(port)}.`);
  try {
    checkExposure(host, adminToken);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { port, host, adminToken, dataDir, databaseUrl };
}

/** Runs the CLI; resolves with the running sandbox (stopped on SIGINT/SIGTERM, after which the process exits). */
export async function runCli(argv: string[]): Promise<Sandbox | undefined> {
  const [command, ...rest] = argv;
  if (command !== 'sandbox') {
    console.error(command === undefined || command === '--help' ? USAGE : `Unknown command ${command}.\n\n${USAGE}`);
    process.exitCode = command === '--help' ? 0 : 2;
    return undefined;
  }
  if (rest.includes('--help')) {
    console.log(USAGE);
    return undefined;
  }
  let options: CliOptions;
  try {
    options = parseArgs(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    process.exitCode = 2;
    return undefined;
  }
  const store = options.databaseUrl ? { databaseUrl: options.databaseUrl } : options.dataDir ? { dataDir: options.dataDir } : { memory: true };
  const sandbox = await startSandbox({ port: options.port, host: options.host, ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }), ...store });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => {
        console.log(`Sandbox stopped (${signal}).`);
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Sandbox did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  console.log(`Sandbox:           ${sandbox.url}  (Business API /api/..., v1 API /api/v1/..., control API /sandbox/...)`);
  console.log(`Dashboard:         ${sandbox.url}/  (tenants, records, control actions, the clock and the delivery timeline)`);
  console.log(`Control API docs:  ${sandbox.docsUrl}  (description: ${sandbox.url}/sandbox/openapi.json)`);
  const where = options.databaseUrl ? `PostgreSQL at ${new URL(options.databaseUrl).host}` : (options.dataDir ?? 'in memory (nothing written to disk)');
  console.log(`Data:              ${where}`);
  console.log(`Control API:       ${options.adminToken === undefined ? 'no token (loopback only)' : "admin token required (or a tenant's own token for its records)"}`);
  if (sandbox.gaps.length) console.log(`Operations without a handler (they answer 501): ${sandbox.gaps.join(', ')}`);
  console.log('Ctrl-C to stop.');
  return sandbox;
}
