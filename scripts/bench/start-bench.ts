// Start time of the sandbox against Prism's: from spawning the process to the first answered request,
// in interleaved rounds, each round in a new random order, with each target's ratio to Prism's start taken
// inside its round. The sandbox is the built package (`npm run build`), started the ways a user starts it.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killTree } from '../../src/testing/process-tree.js';
import { apiFamilies, repoRoot } from '../openapi/apis.js';
import { freePort } from '../openapi/prism.js';
import { ratioText, shuffle, summarize } from './percentile.js';

interface Target {
  name: string;
  ready: string;
  /** The command, and the port it will listen on when the command is given one (else read from its output). */
  command: () => Promise<{ argv: string[]; url?: string; cleanup?: () => void }>;
}

export interface StartRow {
  name: string;
  ready: string;
  ms: { median: number; p10: number; p90: number };
  toPrism?: { median: number; p10: number; p90: number };
}

const bin = join(repoRoot, 'src', 'sandbox', 'dist', 'bin.js');
const work = mkdtempSync(join(tmpdir(), 'ramp-start-bench-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const SANDBOX_READY = 'printed "Ctrl-C to stop." and answered GET /api/parameters/banks with 200';

const targets: Target[] = [
  {
    name: 'npx ramp-api sandbox --memory',
    ready: SANDBOX_READY,
    command: async () => ({ argv: ['npx', 'ramp-api', 'sandbox', '--memory', '--port', '0'] }),
  },
  {
    name: 'ramp-api-sandbox --memory (node dist/bin.js)',
    ready: SANDBOX_READY,
    command: async () => ({ argv: [process.execPath, bin, '--memory', '--port', '0'] }),
  },
  {
    name: 'ramp-api-sandbox --data NEW_FOLDER',
    ready: SANDBOX_READY,
    command: async () => {
      const dir = join(work, `fresh-${++folders}`);
      return {
        argv: [process.execPath, bin, '--data', dir, '--port', '0'],
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'ramp-api-sandbox --data FOLDER (a restart)',
    ready: SANDBOX_READY,
    command: async () => ({ argv: [process.execPath, bin, '--data', join(work, 'kept'), '--port', '0'] }),
  },
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
    name: 'Prism: prism mock business.json',
    ready: 'answered a request (any status)',
    command: async () => {
      const port = await freePort();
      const dir = join(work, `prism-${++folders}`);
      mkdirSync(dir);
      const bundle = join(dir, 'business.json');
      copyFileSync(apiFamilies().find((api) => api.name === 'business')!.bundleJson, bundle);
      return {
        argv: [
          join(repoRoot, 'node_modules', '.bin', 'prism'),
          'mock',
          bundle,
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-v',
          'warn',
        ],
        url: `http://127.0.0.1:${port}`,
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
];

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

/** `rounds` rounds (after one warm-up round, not counted: the first start after a build reads files cold). */
export async function startTimes(
  rounds: number,
): Promise<{ rows: StartRow[]; load: { before: number; after: number } }> {
  const before = loadavg()[0]!;
  // The restart target's folder: made by one start first.
  await timeStart(targets.find((t) => t.name.startsWith('ramp-api-sandbox --data FOLDER'))!);
  const times = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const ratios = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = -1; round < rounds; round++) {
    const inRound = new Map<string, number>();
    for (const target of shuffle(targets)) inRound.set(target.name, await timeStart(target));
    if (round < 0) continue;
    const prism = inRound.get(targets.at(-1)!.name)!;
    for (const [name, ms] of inRound) {
      times.get(name)!.push(ms);
      ratios.get(name)!.push(ms / prism);
    }
  }
  const rows = targets.map((t) => ({
    name: t.name,
    ready: t.ready,
    ms: summarize(times.get(t.name)!),
    ...(t.name.startsWith('Prism') ? {} : { toPrism: summarize(ratios.get(t.name)!) }),
  }));
  return { rows, load: { before, after: loadavg()[0]! } };
}

export function startTable({ rows, load }: Awaited<ReturnType<typeof startTimes>>, rounds: number): string[] {
  const ms = (n: number) => `${(n / 1000).toFixed(2)} s`;
  return [
    `Start time, from spawning the process to its first answered request: ${rounds} interleaved rounds after a warm-up round; load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after.`,
    '',
    '| Target | Median (p10–p90) | Against Prism, per round: median (p10–p90) | Ready when |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${ms(r.ms.median)} (${ms(r.ms.p10)}–${ms(r.ms.p90)}) | ${r.toPrism ? ratioText(r.toPrism) : '1 (reference)'} | ${r.ready} |`,
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
