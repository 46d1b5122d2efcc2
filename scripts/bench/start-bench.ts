// Start time of the sandbox against Prism's: from spawning the process to the first answered request, in
// rounds on the harness (each round in a new random order), with each target's ratio to Prism's start taken
// inside its round. The sandbox is the built package (`npm run build`), started the ways a user starts it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killTree } from '../../src/testing/process-tree.js';
import { apiFamilies, repoRoot } from '../openapi/apis.js';
import { freePort } from '../openapi/prism.js';
import { markdownTable, ratioText, type Summary, sideBySide, spread } from './harness.js';

interface Target {
  name: string;
  ready: string;
  /** The command, and the port it will listen on when the command is given one (else read from its output). */
  command: () => Promise<{ argv: string[]; url?: string; cleanup?: () => void }>;
}

export interface StartRow {
  name: string;
  ready: string;
  ms: Summary;
  toPrism?: Summary;
}

const bin = join(repoRoot, 'src', 'sandbox', 'dist', 'bin.js');
const SANDBOX_READY = 'printed "Ctrl-C to stop." and answered GET /api/parameters/banks with 200';
/** A new folder under `work` for each start that needs one, removed after it. */
const freshFolder = (work: string, name: string) => {
  const dir = join(work, `${name}-${randomUUID()}`);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** The floor: Node starting a bare node:http server, nothing else. */
const FLOOR = 'node -e: a bare node:http server (the floor)';

/** The ways to start, each with what counts as ready; their folders under `work`. Prism's is the reference. */
function targetsIn(work: string): Target[] {
  const sandbox = (name: string, args: () => { argv: string[]; cleanup?: () => void }): Target => ({
    name,
    ready: SANDBOX_READY,
    command: async () => args(),
  });
  return [
    sandbox('npx ramp-api sandbox --memory', () => ({
      argv: ['npx', 'ramp-api', 'sandbox', '--memory', '--port', '0'],
    })),
    sandbox('ramp-api-sandbox --memory (node dist/bin.js)', () => ({
      argv: [process.execPath, bin, '--memory', '--port', '0'],
    })),
    sandbox('ramp-api-sandbox --data NEW_FOLDER', () => {
      const { dir, cleanup } = freshFolder(work, 'fresh');
      return { argv: [process.execPath, bin, '--data', dir, '--port', '0'], cleanup };
    }),
    sandbox('ramp-api-sandbox --data FOLDER (a restart)', () => ({
      argv: [process.execPath, bin, '--data', join(work, 'kept'), '--port', '0'],
    })),
    {
      name: "startSandbox({ memory: true }) from 'ramp-api-sandbox', in a new Node process",
      ready: 'the script printed the address after startSandbox resolved, and GET /api/parameters/banks answered 200',
      command: async () => ({
        argv: [
          process.execPath,
          '--input-type=module',
          '-e',
          "const { startSandbox } = await import('ramp-api-sandbox'); const s = await startSandbox({ memory: true, port: 0 }); console.log('Sandbox: ' + s.url); console.log('Ctrl-C to stop.'); process.on('SIGTERM', () => s.close().then(() => process.exit(0)));",
        ],
      }),
    },
    {
      name: FLOOR,
      ready: 'answered a request (any status)',
      command: async () => {
        const port = await freePort();
        const serve = `require('node:http').createServer((q, s) => s.end()).listen(${port}, '127.0.0.1')`;
        return { argv: [process.execPath, '-e', serve], url: `http://127.0.0.1:${port}` };
      },
    },
    {
      name: 'Prism: prism mock business.json',
      ready: 'answered a request (any status)',
      command: async () => {
        const port = await freePort();
        const { dir, cleanup } = freshFolder(work, 'prism');
        mkdirSync(dir);
        const bundle = join(dir, 'business.json');
        copyFileSync(apiFamilies().find((api) => api.name === 'business')!.bundleJson, bundle);
        const prism = join(repoRoot, 'node_modules', '.bin', 'prism');
        return {
          argv: [prism, 'mock', bundle, '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
          url: `http://127.0.0.1:${port}`,
          cleanup,
        };
      },
    },
  ];
}

/** Milliseconds from spawning `target` to its first answered request; the process is stopped afterwards. */
async function timeStart(target: Target): Promise<number> {
  const { argv, url: given, cleanup } = await target.command();
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SANDBOX_PORT: '', DATABASE_URL: '' },
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  child.stderr.on('data', (chunk) => (out += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    const deadline = started + 60_000;
    for (;;) {
      if (performance.now() > deadline)
        throw new Error(`${target.name}: not ready (${target.ready}) within 60 s:\n${out}`);
      if (child.exitCode !== null) throw new Error(`${target.name} exited before it was ready:\n${out}`);
      const url =
        given ??
        (out.includes('Ctrl-C to stop.') ? /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] : undefined);
      if (url) {
        const answered = await fetch(`${url}/api/parameters/banks`, { signal: AbortSignal.timeout(2000) }).then(
          (res) => {
            res.body?.cancel();
            return given ? true : res.status === 200;
          },
          () => false,
        );
        if (answered) return performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    // npx runs the sandbox in a child process of its own, and does not pass SIGTERM on to it: the whole tree.
    killTree(child.pid!, 'SIGTERM');
    const force = setTimeout(() => killTree(child.pid!, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
    cleanup?.();
  }
}

/** `rounds` rounds on the harness, after one warm-up round not counted (the first start after a build reads files cold). */
export async function startTimes(
  rounds: number,
): Promise<{ rows: StartRow[]; load: { before: number; after: number } }> {
  const before = loadavg()[0]!;
  const work = mkdtempSync(join(tmpdir(), 'ramp-start-bench-'));
  try {
    const targets = targetsIn(work);
    // The restart target's folder: made by one start first.
    await timeStart(targets.find((t) => t.name.startsWith('ramp-api-sandbox --data FOLDER'))!);
    const contenders = targets.map((t) => ({
      name: t.name,
      ...(t.name.startsWith('Prism')
        ? { role: 'reference' as const }
        : t.name === FLOOR
          ? { role: 'floor' as const }
          : {}),
      turn: () => timeStart(t),
    }));
    const compared = await sideBySide(contenders, { turns: rounds, warmUp: 1 }, (ms) => ms);
    const rows = compared.map(({ name, figure, ratio }, i) => ({
      name,
      ready: targets[i]!.ready,
      ms: figure,
      ...(ratio ? { toPrism: ratio } : {}),
    }));
    return { rows, load: { before, after: loadavg()[0]! } };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function startTable({ rows, load }: Awaited<ReturnType<typeof startTimes>>, rounds: number): string[] {
  const ms = (n: number) => `${(n / 1000).toFixed(2)} s`;
  return [
    `Start time, from spawning the process to its first answered request: ${rounds} interleaved rounds after a warm-up round; load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after.`,
    '',
    ...markdownTable(
      'Target | Median (p10–p90) | Against Prism, per round: median (p10–p90) | Ready when',
      rows.map((r) => [r.name, spread(r.ms, ms), r.toPrism ? ratioText(r.toPrism) : '1 (reference)', r.ready]),
    ),
  ];
}

export function startTargets({ rows }: Awaited<ReturnType<typeof startTimes>>): string[] {
  const row = (prefix: string) => rows.find((r) => r.name.startsWith(prefix))!;
  const check = (label: string, r: StartRow, limitMs: number) =>
    `- ${label}: ${(r.ms.median / 1000).toFixed(2)} s median (target within ${limitMs / 1000} s on a quiet machine): ${r.ms.median <= limitMs ? 'met' : 'missed'}`;
  return [
    check('`npx ramp-api sandbox --memory` ready', row('npx ramp-api sandbox'), 1000),
    check("`startSandbox({ memory: true })`, Node's own start included", row('startSandbox'), 1000),
    check('a fresh `--data` folder ready', row('ramp-api-sandbox --data NEW'), 1500),
  ];
}
