// What every check of `npm run interop` uses: the tools in node_modules and their versions, a command run without a
// shell with its output kept, and the row each check reports.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';

export const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
export const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
    .version;

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command without a shell, keeping the last 64 KiB of its output (and all of it in `logFile`, if given). */
export function run(
  command: string,
  commandArgs: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; logFile?: string } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const log = options.logFile ? createWriteStream(options.logFile) : undefined;
    const keep = (chunk: Buffer) => {
      log?.write(chunk);
      output = (output + chunk.toString('utf8')).slice(-65_536);
    };
    child.on('close', () => log?.end());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export const firstLines = (text: string, n = 6) =>
  text
    .split('\n')
    .filter((l) => l.trim() && !/npm warn/.test(l))
    .slice(0, n)
    .join('\n    ');

export interface Row {
  tool: string;
  version: string;
  api: string;
  result: string;
  ok: boolean;
  detail?: string;
}
