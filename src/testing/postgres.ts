// Test and load-test support: a throwaway PostgreSQL cluster from the machine's own PostgreSQL binaries
// (Debian's `postgresql` package), on a free loopback port, in a temporary directory that is removed on stop.
// Nothing is downloaded. As root the server runs as the `postgres` user, since initdb refuses root.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './local-server.js';

export interface PostgresCluster {
  /** URL of the cluster's `postgres` database, as the `postgres` superuser (trust authentication, loopback only). */
  url: string;
  stop(): void;
  /** Stops the server (fast shutdown: sessions are ended) and keeps its data, as a restart or an outage would. */
  pause(): void;
  /** Starts the paused server again on the same port, with the same data. */
  resume(): void;
}

/** The directory of the newest installed PostgreSQL's binaries, or null when there is none. */
export function postgresBinaries(): string | null {
  const fromEnv = process.env.POSTGRES_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailable(): string | null {
  if (!postgresBinaries()) return "no PostgreSQL binaries (install Debian's `postgresql`, or set POSTGRES_BIN)";
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' });
    } catch {
      return 'running as root and there is no `postgres` user to run the server as';
    }
  }
  return null;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const why = postgresUnavailable();
  if (why) throw new Error(`Cannot start PostgreSQL: ${why}.`);
  const bin = postgresBinaries()!;
  const dir = mkdtempSync(join(tmpdir(), 'ramp-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string) =>
    asRoot
      ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'pipe' }).toString()
      : execFileSync('/bin/sh', ['-c', command], { stdio: 'pipe' }).toString();
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const stop = () => {
    process.off('exit', stop);
    try {
      // Whenever a server may run: also one whose start was cut short (pg_ctl killed by a Ctrl-C after it
      // launched the server, which runs in a session of its own).
      if (existsSync(join(data, 'postmaster.pid')))
        run(`${bin}/pg_ctl -D ${quote(data)} -m immediate -w stop >/dev/null 2>&1`);
    } catch {
      // stopped already
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // From here on, whatever ends this process (a signal handler's exit, vitest's on SIGINT/SIGTERM, an error)
  // stops the cluster and removes its folder on the way out, during the start too. Registered before this
  // function first waits, so that a caller's exit hooks registered after the call run after this one.
  process.once('exit', stop);
  const port = await freePort();
  // fsync off: a throwaway cluster for tests; a crash of the machine loses nothing anyone needs.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => {
    run(`${bin}/pg_ctl -D ${quote(data)} -o ${quote(options)} -w -l ${quote(join(dir, 'log'))} start >/dev/null`);
  };
  try {
    run(`${bin}/initdb -D ${quote(data)} --auth=trust -U postgres --no-sync >/dev/null`);
    start();
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? execFileSync('cat', [join(dir, 'log')]).toString() : '';
    stop();
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    pause() {
      run(`${bin}/pg_ctl -D ${quote(data)} -m fast -w stop >/dev/null`);
    },
    resume: start,
  };
}

let databases = 0;

/** A new, empty database in the cluster at `adminUrl`; its URL. */
export async function createDatabase(adminUrl: string, prefix = 'sandbox'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${++databases}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}
