// Starts the loopback server of the benchmarks (bench-server-child.ts) in its own process: keep-alive, the same
// bytes for every request, and a count of the requests it answered.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

export interface BenchServer {
  child: ChildProcess;
  url: string;
  /** How many requests the server has answered so far. */
  answered: () => Promise<number>;
  stop: () => Promise<void>;
}

export async function startBenchServer(body: string): Promise<BenchServer> {
  const child = fork(join(import.meta.dirname, 'bench-server-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_BODY: body },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
  const { port } = await next<{ port: number }>();
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    answered: async () => {
      const reply = next<{ answered: number }>();
      child.send({ count: true });
      return (await reply).answered;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ stop: true });
      }),
  };
}
