// The one way a test gets a sandbox running in its own process, and the one place that says which stores the
// sandbox suites run on: the run's `stores` (its vitest config's `provide`). `npm test` runs them on PGlite in
// memory; `npm run test:postgres` runs the same suites on PostgreSQL, in the cluster its global setup started
// (scripts/test-setup/postgres.ts), each use with a database of its own.
//
//   useSandbox(options?)      in a describe body (or a file's top level): the sandbox starts before the block's
//                             first test and is closed after its last, whether the tests passed or not. Returns a
//                             handle that reads the running sandbox (`sandbox.url`, `sandbox.db`, ...).
//   sandboxInTest(options?)   in a test body: a sandbox of the test's own, closed when the test ends (also when it
//                             fails).
//   forEachStore(name, body)  one describe block per store under test: `forEachStore('flows', (store) => { const
//                             sandbox = useSandbox({ store }); it(...) })`.
//   storeNamed(name)          one store of the matrix, or undefined when this run has none (`describe.skipIf`).
//   onPostgreSQL(name, body)  a describe block that exists only in a run on PostgreSQL, in a file that has tests
//                             for every run; a file of PostgreSQL's tests alone is named `*.postgres.test.ts`.
//   newPostgresDatabase()     a fresh database of the run's cluster, for a sandbox started as a process.
//
// `options` are startSandbox's, plus `store` (default: PGlite in memory) and `shareWith` (another sandbox of this
// fixture whose PostgreSQL database this one opens too: several instances on one database). Options naming a
// store themselves (`db`, `databaseUrl`, `dataDir`, `memory`) are passed as they are. On PGlite in memory the
// store is one an earlier sandbox of the worker gave back, emptied to what a new store holds (./store-pool.ts). A
// test that starts the sandbox as a separate process (the command line, SIGKILL) uses ./sandbox-process.ts instead.
import { afterAll, beforeAll, describe, inject, onTestFinished } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../sandbox/server.js';
import type { Db } from '../sandbox/store/db.js';
import { createDatabase } from './postgres.js';
import { giveBack, takeStore } from './store-pool.js';

export type StoreName = 'PGlite' | 'PostgreSQL';

export interface StoreUnderTest {
  name: StoreName;
  /** Options for startSandbox naming a fresh, empty store of this kind. */
  options(): Promise<{ memory: true } | { databaseUrl: string }>;
}

export interface FixtureOptions extends SandboxOptions {
  store?: StoreUnderTest;
  shareWith?: TestSandbox;
}

/** A sandbox of this fixture: the sandbox, and the PostgreSQL database it opened (undefined on PGlite). */
export type TestSandbox = Sandbox & { readonly databaseUrl: string | undefined };

const PGLITE: StoreUnderTest = { name: 'PGlite', options: async () => ({ memory: true }) };

const POSTGRESQL: StoreUnderTest = {
  name: 'PostgreSQL',
  options: async () => ({ databaseUrl: await newPostgresDatabase() }),
};

/** The stores the sandbox suites run on in this run, in the order its config names them (none named: PGlite). */
export function storesUnderTest(): StoreUnderTest[] {
  return (inject('stores') ?? ['PGlite']).map((name) => (name === 'PGlite' ? PGLITE : POSTGRESQL));
}

export function storeNamed(name: StoreName): StoreUnderTest | undefined {
  return storesUnderTest().find((store) => store.name === name);
}

export async function newPostgresDatabase(): Promise<string> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl) throw new Error('This run has no PostgreSQL cluster: `npm run test:postgres` runs the suites on one.');
  return createDatabase(adminUrl);
}

export function forEachStore(name: string, body: (store: StoreUnderTest) => void): void {
  for (const store of storesUnderTest()) describe(`${name} on ${store.name}`, () => body(store));
}

/** A describe block for PostgreSQL alone: registered only when this run's stores include it; see the header. */
export function onPostgreSQL(name: string, body: (store: StoreUnderTest) => void): void {
  const postgres = storeNamed('PostgreSQL');
  if (postgres) describe(name, () => body(postgres));
}

async function start(options: FixtureOptions): Promise<TestSandbox> {
  const { store = PGLITE, shareWith, ...rest } = options;
  const named = rest.db || rest.databaseUrl || rest.dataDir || rest.memory;
  // PGlite in memory: a store kept from an earlier sandbox of this worker, emptied (./store-pool.ts).
  const pooled = !named && !shareWith && store === PGLITE ? await takeStore() : undefined;
  const storeOptions = named
    ? {}
    : pooled
      ? { db: pooled }
      : shareWith
        ? { databaseUrl: shareWith.databaseUrl }
        : await store.options();
  const sandboxOptions: SandboxOptions = { ...storeOptions, ...rest };
  const sandbox = await startSandbox(sandboxOptions).catch(async (error: unknown) => {
    if (pooled) await giveBack(pooled);
    throw error;
  });
  if (pooled) givenBackOnClose(sandbox, pooled);
  return Object.assign(sandbox, { databaseUrl: sandboxOptions.databaseUrl });
}

/** The sandbox's close, once, then its store given back; a store whose sandbox did not close well is closed. */
function givenBackOnClose(sandbox: Sandbox, db: Db): void {
  const close = sandbox.close.bind(sandbox);
  let closing: Promise<void> | undefined;
  sandbox.close = () =>
    (closing ??= close().then(
      () => giveBack(db),
      async (error: unknown) => {
        await db.close().catch(() => undefined);
        throw error;
      },
    ));
}

/** A sandbox for the tests of the enclosing block; see the header. */
export function useSandbox(options: FixtureOptions = {}): TestSandbox {
  let running: TestSandbox | undefined;
  // Starting on PostgreSQL while the machine is busy can take longer than the run's hook bound.
  beforeAll(async () => {
    running = await start(options);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    running = undefined;
  }, 30_000);
  return new Proxy({} as TestSandbox, {
    get(_, key) {
      if (!running) throw new Error(`The fixture's sandbox is not running here (read of ${String(key)}).`);
      const value = Reflect.get(running, key, running);
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}

/** A sandbox for the calling test alone; see the header. */
export async function sandboxInTest(options: FixtureOptions = {}): Promise<TestSandbox> {
  const sandbox = await start(options);
  onTestFinished(() => sandbox.close());
  return sandbox;
}
