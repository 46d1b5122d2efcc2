// `ramp-api sandbox [--port N] [--data DIR] [--memory]`: starts the sandbox on 127.0.0.1 until SIGINT/SIGTERM.
import { resolve } from 'node:path';
import { startSandbox, type Sandbox } from './server.js';

export const USAGE = `Usage: ramp-api sandbox [--port N] [--data DIR] [--memory] [--database-url URL]

  --port N              port on 127.0.0.1 (default SANDBOX_PORT, else a free port)
  --data DIR            where the state is kept (default .ramp-sandbox/ in the working directory)
  --memory              keep nothing on disk
  --database-url URL    keep the state in this PostgreSQL server instead (default DATABASE_URL)
`;

export interface CliOptions {
  port: number;
  dataDir: string | null;
  databaseUrl: string | null;
}

export function parseArgs(args: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliOptions {
  let port = env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : 0;
  let dataDir: string | null = resolve(cwd, '.ramp-sandbox');
  let databaseUrl: string | null = env.DATABASE_URL || null;
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
    else if (arg === '--database-url') databaseUrl = value();
    else if (arg.startsWith('--database-url=')) databaseUrl = arg.slice(15);
    else throw new Error(`Unknown option ${arg}.\n\n${USAGE}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${String(port)}.`);
  return { port, dataDir, databaseUrl };
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
  const options = parseArgs(rest);
  const store = options.databaseUrl ? { databaseUrl: options.databaseUrl } : options.dataDir ? { dataDir: options.dataDir } : { memory: true };
  const sandbox = await startSandbox({ port: options.port, ...store });
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
  console.log(`Control API docs:  ${sandbox.docsUrl}  (description: ${sandbox.url}/sandbox/openapi.json)`);
  const where = options.databaseUrl ? `PostgreSQL at ${new URL(options.databaseUrl).host}` : (options.dataDir ?? 'in memory (nothing written to disk)');
  console.log(`Data:              ${where}`);
  if (sandbox.gaps.length) console.log(`Operations without a handler (they answer 501): ${sandbox.gaps.join(', ')}`);
  console.log('Ctrl-C to stop.');
  return sandbox;
}
