// What the browser tests of the site drive: `npm start` as a newcomer runs it (on free ports, in a process group of
// its own so that all of it stops), its printed addresses, and Chromium with every request off loopback blocked
// and recorded, and the page's errors collected.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../src/testing/chromium.js';
import { killTree } from '../../src/testing/process-tree.js';
import { until } from '../../src/testing/until.js';
import { repoRoot } from '../openapi/apis.js';

export interface ServedSite {
  site: string;
  sandbox: string;
  mocks: Record<string, string>;
  browser: Browser;
  page: Page;
  /** Requests the page tried to send off loopback (blocked). */
  outside: string[];
  pageErrors: string[];
  stop(): Promise<void>;
}

export async function startServedSite(): Promise<ServedSite> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const start: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, PORT: '', SANDBOX_PORT: '' },
  });
  let output = '';
  start.stdout!.on('data', (chunk) => (output += String(chunk)));
  start.stderr!.on('data', (chunk) => (output += String(chunk)));
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    if (start.pid && start.exitCode === null) {
      process.kill(-start.pid, 'SIGTERM');
      const exited = new Promise((resolve) => start.once('exit', resolve));
      const timer = setTimeout(() => killTree(start.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    await until(() => output.includes('Ctrl-C to stop.'), 'npm start printing "Ctrl-C to stop."', 110_000);
    const line = (label: string) => new RegExp(`^${label}\\s+(http://\\S+?)/?(?:\\s|$)`, 'm').exec(output)?.[1];
    browser = await launchChromium();
    const site = line('Documentation:')!;
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const outside: string[] = [];
    const pageErrors: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return {
      site,
      sandbox: line('Sandbox:')!,
      mocks: Object.fromEntries(
        [...output.matchAll(/^(\S+) API mock:\s+(http:\/\/\S+)/gm)].map((m) => [m[1]!, m[2]!] as [string, string]),
      ),
      browser,
      page,
      outside,
      pageErrors,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nnpm start said:\n${output}`);
  }
}
