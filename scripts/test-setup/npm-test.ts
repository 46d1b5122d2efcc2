// `npm test`: the lint (`npm run lint`) and the type check (`npm run typecheck`) beside vitest, rather than before
// it, so that the checks use the cores vitest's build leaves idle. Their output is kept until they end: a line
// when both passed; when one fails, vitest is stopped (its teardown stops what it started), the failed check's
// output is printed, and the exit status is 1. SIGINT and SIGTERM are passed on to every process started here.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

interface Check {
  name: string;
  code: number | null;
  output: string;
  seconds: number;
}

const children = new Set<ChildProcess>();

function check(name: string): Promise<Check> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      children.delete(child);
      resolve({ name, code, output, seconds: (performance.now() - started) / 1000 });
    }),
  );
}

const vitest = spawn(join(root, 'node_modules', '.bin', 'vitest'), ['run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
children.add(vitest);
const vitestExit = new Promise<number>((resolve) =>
  vitest.once('close', (code, signal) => {
    children.delete(vitest);
    resolve(code ?? (signal ? 128 + 15 : 1));
  }),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of children) child.kill(signal);
    void vitestExit.then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });

const checks = await Promise.all([check('lint'), check('typecheck')]);
const failed = checks.filter((c) => c.code !== 0);
if (failed.length) {
  vitest.kill('SIGTERM');
  await vitestExit;
  for (const c of failed) console.error(`\nnpm run ${c.name} failed (exit status ${c.code}):\n${c.output}`);
  process.exit(1);
}
console.log(`\n${checks.map((c) => `${c.name} passed (${c.seconds.toFixed(1)} s)`).join(', ')}`);
process.exit(await vitestExit);
