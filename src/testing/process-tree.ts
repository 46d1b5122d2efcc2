// Test support: a process and everything it started, read from /proc (Linux), so that a test can stop a command
// (npm, npx, a shell) together with its children without putting it in a process group of its own, which would
// take it out of reach of the Ctrl-C that stops the test run.
import { readdirSync, readFileSync } from 'node:fs';

/** `pid` and its descendants, parents before children. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (p: number) => {
    tree.push(p);
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** Sends `signal` to `pid` and to every process below it; those already gone are skipped. */
export function killTree(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const p of processTree(pid)) {
    try {
      process.kill(p, signal);
    } catch {
      // gone meanwhile
    }
  }
}
