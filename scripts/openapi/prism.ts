// Starts Prism (mock, or proxy in front of a real deployment) on a free loopback port, waits until it
// answers, and stops it again; the watchdog (src/testing/watchdog.ts) stops every process started here, and
// removes its copy of the description, whatever ends this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort } from '../../src/testing/local-server.js';
import { watchFolder, watchProcess } from '../../src/testing/watchdog.js';
import { repoRoot } from './apis.js';

export interface PrismServer {
  url: string;
  stop(): Promise<void>;
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`Prism exited with code ${child.exitCode} before answering:\n${output()}`);
    try {
      await fetch(`${url}/__ramp_api_ready_probe__`, { signal: AbortSignal.timeout(500) });
      return; // any HTTP answer (404 included) means it is serving
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`Prism did not answer on ${url} within ${timeoutMs} ms:\n${output()}`);
}

export { freePort };

export async function startPrism(options: {
  bundle: string;
  upstream?: string;
  timeoutMs?: number;
}): Promise<PrismServer> {
  const port = await freePort();
  // Prism watches the file it serves and restarts (dropping connections) when it changes, and `npm run bundle`
  // or `npm test` rewrite dist/openapi/: serve a private copy instead.
  const copyDir = mkdtempSync(join(tmpdir(), 'ramp-prism-'));
  // Removed, and Prism stopped, even if this process ends without its exit hook (a second Ctrl-C, SIGKILL, a
  // test runner ending its worker).
  const folderGuard = watchFolder(copyDir);
  const served = join(copyDir, basename(options.bundle));
  copyFileSync(options.bundle, served);
  // A mock logs only what stops it (a document it cannot serve, a port in use), which a failed start reports: its
  // lines for each request refused (the violations, which its answers carry in sl-violations) are read by no one,
  // and writing and reading them cost CPU in every suite that sends many requests.
  const args = options.upstream
    ? ['proxy', served, options.upstream, '--errors', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn']
    : ['mock', served, '-h', '127.0.0.1', '-p', String(port), '-v', 'fatal'];
  const child = spawn(join(repoRoot, 'node_modules', '.bin', 'prism'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const processGuard = child.pid === undefined ? undefined : watchProcess(child.pid);
  child.once('exit', () => processGuard?.release());
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      const forget = () => {
        processGuard?.release();
        rmSync(copyDir, { recursive: true, force: true });
        folderGuard.release();
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return forget();
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        forget();
      });
      child.kill('SIGTERM');
    });
  try {
    await waitUntilAnswering(url, child, () => log, options.timeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
