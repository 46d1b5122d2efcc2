// The processes and servers of `npm run sandbox:load` (scripts/bench/load.ts), and the load balancer in front of the
// two sandboxes. What is started is added to the run's `startedHere()`, which stops it on any exit path.
import { performance } from 'node:perf_hooks';
import { readBundleFile } from '../../src/sandbox/contract/document.js';
import { precompiledValidator } from '../../src/sandbox/contract/reference.js';
import { createRouter } from '../../src/sandbox/contract/router.js';
import { SANDBOX_FAMILIES } from '../../src/sandbox/server.js';
import { type EventReceiver, type ReceiverBehaviour, startEventReceiver } from '../../src/testing/event-receiver.js';
import type { SandboxProcess } from '../../src/testing/sandbox-process.js';
import type { StartedHere } from './harness.js';

/** Thrown by the balancer for a request that the killed instance never answered. */
class LostToKill extends Error {}
export const lostToKill = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if (e instanceof LostToKill) return true;
  return false;
};

// ---- The load balancer: a fetch for the typed clients that sends each request to the next live instance
// and times it under the operationId the bundles give its method and path.

interface Instance {
  url: string;
  process: SandboxProcess;
  killed: boolean;
  inFlight: number;
}

interface Tally {
  latencies: number[];
  errors: number;
  refused: number;
  lostToKill: number;
}

export function createBalancer(instances: Instance[]) {
  const { routes } = createRouter(
    SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) })),
    precompiledValidator,
  );
  const tallies = new Map<string, Tally>();
  const tally = (operation: string): Tally =>
    tallies.get(operation) ??
    tallies.set(operation, { latencies: [], errors: 0, refused: 0, lostToKill: 0 }).get(operation)!;
  const operationOf = (method: string, path: string) =>
    routes.find(
      (r) => r.entry.method === method.toLowerCase() && r.segments === path.split('/').length && r.match(path),
    )?.entry.operationId ?? `${method} ${path}`;
  let next = 0;
  const errors: string[] = [];
  const fetchVia: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const live = instances.filter((i) => !i.killed);
    const instance = live[next++ % live.length]!;
    const url = new URL(request.url);
    const operation = operationOf(request.method, url.pathname);
    const target = new URL(url.pathname + url.search, instance.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const started = performance.now();
    instance.inFlight++;
    try {
      const response = await fetch(target, {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        redirect: 'manual',
      });
      tally(operation).latencies.push(performance.now() - started);
      return response;
    } catch (error) {
      if (instance.killed) {
        tally(operation).lostToKill++;
        throw new LostToKill(`${operation} was in flight on the killed instance`, { cause: error });
      }
      tally(operation).errors++;
      if (errors.length < 20) errors.push(`${operation}: ${(error as Error).message}`);
      throw error;
    } finally {
      instance.inFlight--;
    }
  };
  return { fetch: fetchVia, tally, tallies, errors };
}

/** The three receivers and the two sandbox instances on the database at `databaseUrl`, each tracked as it starts. */
export async function startCluster(
  databaseUrl: string,
  started: StartedHere,
): Promise<{ receivers: Record<ReceiverBehaviour, EventReceiver>; instances: Instance[] }> {
  const receiver = async (behaviour: ReceiverBehaviour) => {
    const r = await startEventReceiver(behaviour);
    started.add(r.close);
    return r;
  };
  const receivers = {
    healthy: await receiver('healthy'),
    error500: await receiver('error500'),
    drop: await receiver('drop'),
  };
  // Both started before either failure is thrown, so that both are stopped.
  const starts = await Promise.allSettled([0, 1].map(() => started.sandbox(['--database-url', databaseUrl])));
  const instances = starts.map((start): Instance => {
    if (start.status === 'rejected') throw start.reason;
    return { url: start.value.url, process: start.value, killed: false, inFlight: 0 };
  });
  return { receivers, instances };
}
