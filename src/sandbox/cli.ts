// `ramp-api sandbox [--port N] [--host ADDR] [--data DIR | --memory | --database-url URL] [--endpoint-networks
// LIST] [--idle-timeout SECONDS] [--allowed-hosts LIST] [--allowed-origins LIST] [--public-url URL]`: starts the sandbox (127.0.0.1 by default) until SIGINT/SIGTERM. A bad option is one line, exit status 2.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { DEFAULT_ENDPOINT_NETWORKS, endpointPolicy } from './core/addresses.js';
import { DEFAULT_HEADERS_TIMEOUT_MS } from './http/connections.js';
import { checkExposure } from './http/exposure.js';
import { parseAllowedHost, parseOrigin, parsePublicUrl } from './http/guards.js';
import type { Sandbox } from './server.js';
import { DataFolderError, prepareDataFolder } from './store/data-lock.js';
import { DatabaseUnavailable, type Db, openPglite } from './store/db.js';
import { favourStartOverPeakSpeed } from './store/wasm-tiering.js';

const USAGE = `Usage: ramp-api-sandbox [--port N] [--host ADDR] [--admin-token-file FILE] [--data DIR | --memory | --database-url URL] [--endpoint-networks LIST] [--idle-timeout SECONDS]
                        [--allowed-hosts LIST] [--allowed-origins LIST] [--public-url URL]
       (npx ramp-api sandbox [options] does the same where ramp-api-sandbox is installed)

  --port N                 port (default SANDBOX_PORT, else a free port)
  --host ADDR              address to listen on (default SANDBOX_HOST, else 127.0.0.1); any address that is
                           not loopback needs an admin token
  --admin-token-file FILE  the control API's admin token, read from FILE (default SANDBOX_ADMIN_TOKEN); with
                           one, control calls need it (or a tenant's own token for that tenant's records).
                           There is no --admin-token: a command line is visible to every user of the machine.
  --data DIR               where the state is kept (default .ramp-sandbox/ in the working directory)
  --memory                 keep nothing on disk
  --database-url URL       keep the state in this PostgreSQL server instead (default DATABASE_URL when
                           neither --memory nor --data is given)
  --endpoint-networks LIST networks webhook endpoints may be in, comma-separated: loopback, private, any,
                           or CIDR blocks (default SANDBOX_ENDPOINT_NETWORKS, else loopback,private);
                           link-local addresses (169.254.0.0/16, fe80::/10) are refused whatever the list
  --idle-timeout SECONDS   how long a connection may send nothing, or take to send a request's headers,
                           before the sandbox closes it (a whole number from 1 to 3600; default ${DEFAULT_HEADERS_TIMEOUT_MS / 1000})
  --allowed-hosts LIST     more host names to answer for, comma-separated (name, name:port, or .domain for it and
                           its subdomains; default SANDBOX_ALLOWED_HOSTS). Without it, a request whose Host is not
                           a name of the listening address (127.0.0.1, localhost, [::1] with its port) gets 421
  --allowed-origins LIST   web origins trusted to change state, comma-separated (http://127.0.0.1:4000; default
                           SANDBOX_ALLOWED_ORIGINS); they also get CORS. A write from any other origin gets 403
  --public-url URL         the address the sandbox is reached at behind a proxy (default SANDBOX_PUBLIC_URL):
                           KYC and checkout links are made from it, never from a request's Host

--memory, --data and --database-url contradict each other: give one. A bad value is one line naming the
option, and exit status 2.
`;

export interface CliOptions {
  port: number;
  host: string;
  /** The admin token (from SANDBOX_ADMIN_TOKEN or --admin-token-file), or undefined. */
  adminToken: string | undefined;
  dataDir: string | null;
  databaseUrl: string | null;
  /** Networks webhook endpoints may be in (never link-local ones). */
  endpointNetworks: string[];
  /** --idle-timeout in milliseconds, or undefined for the default (connections.ts). */
  headersTimeoutMs: number | undefined;
  /** Host names answered besides the listening address's own (http/guards.ts). */
  allowedHosts: string[];
  /** Web origins trusted to change state. */
  allowedOrigins: string[];
  /** The public address links are made from, or undefined for the listening address. */
  publicUrl: string | undefined;
  /** Where the port and the database URL came from (an option or an environment variable), to name it in a refusal. */
  from: { port: string; databaseUrl: string };
}

/** A refusal to start that is the caller's to fix (exit status 2), as opposed to a failure (1). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `value` as a port number, or a UsageError naming `name` (the option or environment variable it came from). */
export function portNumber(name: string, value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`${name}: "${value}" is not a port number (a whole number from 0 to 65535).`);
  return Number(value);
}

/** `value` if it is a PostgreSQL URL, or a UsageError naming `name`; a value that may hold a password is not repeated. */
function postgresUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    !['postgres:', 'postgresql:'].includes(url.protocol) ||
    (!url.hostname && !url.searchParams.get('host'))
  ) {
    const shown = /[@:]/.test(value.replace(/^[a-z]+:\/\//i, ''))
      ? '(the value, not shown here as it may hold a password,)'
      : `"${value}"`;
    throw new UsageError(
      `${name}: ${shown} is not a postgres:// or postgresql:// URL with a host (postgres://user@host:5432/database).`,
    );
  }
  return value;
}

/** The options that take a value; `--memory` takes none. */
const VALUE_OPTIONS = [
  'port',
  'host',
  'data',
  'admin-token-file',
  'database-url',
  'endpoint-networks',
  'idle-timeout',
  'allowed-hosts',
  'allowed-origins',
  'public-url',
] as const;

/**
 * The options given, by name (`--port`), read by Node's `util.parseArgs`. Its tokens are checked here so that
 * each mistake gets its own message: an unknown option or a stray word, a value option with no value (or with
 * the next option taken for its value), a value option given twice with two values, and `--admin-token`.
 */
function givenOptions(args: string[]): Map<string, string> {
  const { tokens } = parseArgv({
    args,
    options: {
      memory: { type: 'boolean' },
      ...Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }])),
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = new Map<string, string>();
  for (const token of tokens) {
    const raw = token.kind === 'option' ? token.rawName : token.kind === 'positional' ? token.value : '--';
    if (token.kind === 'option' && token.name === 'admin-token')
      throw new UsageError(
        `There is no --admin-token: a command line is visible to every user of the machine (ps). Use SANDBOX_ADMIN_TOKEN or --admin-token-file FILE.`,
      );
    const known =
      token.kind === 'option' &&
      raw.startsWith('--') &&
      (token.name === 'memory' ? !token.inlineValue : (VALUE_OPTIONS as readonly string[]).includes(token.name));
    if (!known) throw new UsageError(`Unknown option ${raw} (ramp-api sandbox --help lists the options).`);
    const value = token.name === 'memory' ? '' : token.value;
    if (value === undefined || (!token.inlineValue && token.name !== 'memory' && value.startsWith('--')))
      throw new UsageError(`${raw} needs a value (ramp-api sandbox --help lists the options).`);
    const before = given.get(raw);
    if (before !== undefined && before !== value)
      throw new UsageError(`${raw} is given twice (${before}, ${value}); give it once.`);
    given.set(raw, value);
  }
  return given;
}

export function parseArgs(args: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliOptions {
  const tokenFile = (file: string) => {
    try {
      return readFileSync(resolve(cwd, file), 'utf8').replace(/\r?\n$/, '');
    } catch (cause) {
      throw new UsageError(
        `--admin-token-file: cannot read ${file} (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
  };
  const given = givenOptions(args);
  // One store: the options that choose one contradict each other; DATABASE_URL applies when none is given.
  const stores = ['--memory', '--data', '--database-url'].filter((name) => given.has(name));
  if (stores.length > 1) {
    throw new UsageError(
      `${stores[0]} and ${stores[1]} contradict each other: the state is kept in one place (--memory, --data DIR or --database-url URL); give one.`,
    );
  }
  const port = given.has('--port')
    ? portNumber('--port', given.get('--port')!)
    : env.SANDBOX_PORT
      ? portNumber('SANDBOX_PORT', env.SANDBOX_PORT)
      : 0;
  const host = given.get('--host') ?? (env.SANDBOX_HOST || '127.0.0.1');
  const adminToken = given.has('--admin-token-file')
    ? tokenFile(given.get('--admin-token-file')!)
    : env.SANDBOX_ADMIN_TOKEN || undefined;
  const databaseUrl = given.has('--database-url')
    ? postgresUrl('--database-url', given.get('--database-url')!)
    : stores.length === 0 && env.DATABASE_URL
      ? postgresUrl('DATABASE_URL', env.DATABASE_URL)
      : null;
  const idle = given.get('--idle-timeout');
  if (idle !== undefined && (!/^\d{1,4}$/.test(idle) || Number(idle) < 1 || Number(idle) > 3600)) {
    throw new UsageError(`--idle-timeout: "${idle}" is not a number of seconds (a whole number from 1 to 3600).`);
  }
  const headersTimeoutMs = idle === undefined ? undefined : Number(idle) * 1000;
  const networksFrom = given.has('--endpoint-networks') ? '--endpoint-networks' : 'SANDBOX_ENDPOINT_NETWORKS';
  const networksText = given.get('--endpoint-networks') ?? env.SANDBOX_ENDPOINT_NETWORKS;
  const endpointNetworks = networksText
    ? networksText
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
    : DEFAULT_ENDPOINT_NETWORKS;
  try {
    endpointPolicy(endpointNetworks);
  } catch (error) {
    throw new UsageError(`${networksFrom}: ${(error as Error).message}`);
  }
  /** A comma-separated option (or its environment variable), each entry checked by `check`. */
  const list = (option: string, variable: string, check: (entry: string) => unknown): string[] => {
    const from = given.has(option) ? option : variable;
    const entries = (given.get(option) ?? env[variable] ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    for (const entry of entries) {
      try {
        check(entry);
      } catch (error) {
        throw new UsageError(`${from}: ${(error as Error).message}`);
      }
    }
    return entries;
  };
  const allowedHosts = list('--allowed-hosts', 'SANDBOX_ALLOWED_HOSTS', parseAllowedHost);
  const allowedOrigins = list('--allowed-origins', 'SANDBOX_ALLOWED_ORIGINS', parseOrigin);
  const publicUrlText = given.get('--public-url') ?? (env.SANDBOX_PUBLIC_URL || undefined);
  let publicUrl: string | undefined;
  if (publicUrlText !== undefined) {
    try {
      publicUrl = parsePublicUrl(publicUrlText);
    } catch (error) {
      throw new UsageError(
        `${given.has('--public-url') ? '--public-url' : 'SANDBOX_PUBLIC_URL'}: ${(error as Error).message}`,
      );
    }
  }
  try {
    checkExposure(host, adminToken);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const dataDir = given.has('--memory') || databaseUrl ? null : resolve(cwd, given.get('--data') ?? '.ramp-sandbox');
  if (dataDir) {
    try {
      prepareDataFolder(dataDir);
    } catch (error) {
      throw new UsageError(`--data: ${(error as Error).message}`);
    }
  }
  return {
    port,
    host,
    adminToken,
    dataDir,
    databaseUrl,
    endpointNetworks,
    headersTimeoutMs,
    allowedHosts,
    allowedOrigins,
    publicUrl,
    from: {
      port: given.has('--port') || !env.SANDBOX_PORT ? '--port' : 'SANDBOX_PORT',
      databaseUrl: given.has('--database-url') ? '--database-url' : 'DATABASE_URL',
    },
  };
}

/** The one line that says which option made the start fail, or null for a failure that is not the caller's to fix. */
function startRefusal(error: unknown, options: CliOptions): string | null {
  if (error instanceof DataFolderError) return `--data: ${error.message}`;
  if (error instanceof DatabaseUnavailable) return `${options.from.databaseUrl}: ${error.message}.`;
  const code = (error as NodeJS.ErrnoException).code;
  if ((error as NodeJS.ErrnoException).syscall === 'listen') {
    if (code === 'EADDRINUSE')
      return `${options.from.port}: ${options.host}:${options.port} is already in use; choose another port, or 0 for any free one.`;
    return `--host/--port: cannot listen on ${options.host}:${options.port} (${code ?? 'error'}).`;
  }
  return null;
}

/**
 * The refusal of an address the sandbox cannot listen on (a port in use, an address this machine does not have),
 * found by listening on it and closing again before the store opens: the caller learns at once, not after PGlite's
 * start. The sandbox's own listen still refuses a port taken in between, with the same line.
 */
function addressRefusal(options: CliOptions): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      const why = startRefusal(error, options);
      if (why === null) reject(error);
      else resolve(why);
    });
    probe.listen({ port: options.port, host: options.host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/** The longest the process takes to stop on SIGINT or SIGTERM: past it, it exits without waiting for the store. */
export const SHUTDOWN_BOUND_MS = 10_000;

/** A refusal to start: its one line, and exit status 2. */
function refuse(line: string): undefined {
  console.error(line);
  process.exitCode = 2;
  return undefined;
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
    return refuse(error.message);
  }
  const store = options.databaseUrl
    ? { databaseUrl: options.databaseUrl }
    : options.dataDir
      ? { dataDir: options.dataDir }
      : { memory: true };
  const unusable = await addressRefusal(options);
  if (unusable !== null) return refuse(unusable);
  let sandbox: Sandbox;
  favourStartOverPeakSpeed();
  // A store in memory is opened at once, while the server's modules load, so that PGlite's reading of its files
  // and compiling of its WebAssembly (off the main thread) overlap with them. The sandbox is given the store, so
  // it is closed here, after the sandbox.
  const early: Promise<Db> | undefined =
    'memory' in store
      ? openPglite({
          memory: true,
          // The schema's module loads with the server's (below); PGlite itself starts loading meanwhile.
          schemaDigest: import('./store/migrate.js').then(({ schema }) => schema.digest),
        })
      : undefined;
  early?.catch(() => undefined); // awaited below; this only says that a failure is not unhandled meanwhile
  try {
    // Loaded once the options are known to be good: a refused option is answered without loading the server.
    const server = import('./server.js');
    server.catch(() => undefined);
    const db = await early;
    try {
      const { startSandbox } = await server;
      const started = await startSandbox({
        port: options.port,
        host: options.host,
        endpointNetworks: options.endpointNetworks,
        allowedHosts: options.allowedHosts,
        allowedOrigins: options.allowedOrigins,
        ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
        ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
        ...(options.headersTimeoutMs === undefined
          ? {}
          : { connections: { headersTimeoutMs: options.headersTimeoutMs } }),
        ...(db ? { db } : store),
      });
      sandbox = db ? { ...started, close: () => started.close().then(() => db.close()) } : started;
    } catch (error) {
      await db?.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    const why = startRefusal(error, options);
    if (why === null) throw error;
    return refuse(why);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A store that cannot finish (a full disk, a database that stopped answering) never keeps the process up.
    setTimeout(() => {
      console.error(`Sandbox did not stop within ${SHUTDOWN_BOUND_MS / 1000} s of ${signal}; exiting.`);
      process.exit(1);
    }, SHUTDOWN_BOUND_MS);
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
  printAddresses(sandbox, options);
  return sandbox;
}

/** What the command prints once the sandbox serves: where each part is, and what it refuses. */
function printAddresses(sandbox: Sandbox, options: CliOptions): void {
  console.log(
    `Sandbox:           ${sandbox.url}  (Business API /api/..., v1 API /api/v1/..., control API /sandbox/...)`,
  );
  console.log(
    `Dashboard:         ${sandbox.url}/  (tenants, records, control actions, the clock and the delivery timeline)`,
  );
  console.log(`Control API docs:  ${sandbox.docsUrl}  (description: ${sandbox.url}/sandbox/openapi.json)`);
  const where = options.databaseUrl
    ? `PostgreSQL at ${new URL(options.databaseUrl).host}`
    : (options.dataDir ?? 'in memory (nothing written to disk)');
  console.log(`Data:              ${where}`);
  console.log(
    `Endpoints:         webhook endpoints in ${options.endpointNetworks.join(', ')} networks (never link-local)`,
  );
  console.log(
    `Control API:       ${options.adminToken === undefined ? 'no token (loopback only)' : "admin token required (or a tenant's own token for its records)"}`,
  );
  const except = (names: string[]) => (names.length ? ` except ${names.join(', ')}` : '');
  console.log(
    `Browsers:          other host names refused${except(options.allowedHosts)} (--allowed-hosts); writes from other web origins refused${except(options.allowedOrigins)} (--allowed-origins)`,
  );
  if (options.publicUrl) console.log(`Public URL:        ${options.publicUrl} (links are made from it)`);
  if (sandbox.gaps.length) console.log(`Operations without a handler (they answer 501): ${sandbox.gaps.join(', ')}`);
  console.log('Ctrl-C to stop.');
}
