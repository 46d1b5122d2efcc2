// Redocly CLI, whose `respect` runs the journeys: the copy installed beside this package (an optional peer
// dependency, so that a sandbox used without the journeys does not install it), run with this Node, without
// telemetry or update notices.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from './command-output.js';

/** The Redocly CLI version the journeys are tested with, and the one the guides install. */
export const REDOCLY_VERSION = '2.77.0';

/** How respect is started: the CLI's entry script, the environment and the folder it runs in. */
export interface RedoclyCli {
  script: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const redoclyEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
});

/** The Redocly CLI `from` resolves (default: this package's place), or a UsageError saying how to install it. */
export function findRedocly(cwd: string, from: string = import.meta.url): RedoclyCli {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve('@redocly/cli/package.json');
  } catch {
    throw new UsageError(
      `The journeys run with Redocly CLI's respect, which is not installed here: npm i -D @redocly/cli@${REDOCLY_VERSION}`,
    );
  }
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> };
  const entry = bin?.redocly;
  if (!entry) throw new UsageError(`${manifest} names no redocly command: reinstall @redocly/cli@${REDOCLY_VERSION}`);
  return { script: join(dirname(manifest), entry), env: redoclyEnv(), cwd };
}

/**
 * Redocly CLI 2.77, the last release that runs on Node 20, prints a boxed "Node.js 20 support is ending" notice on
 * every run on Node 20, with no option or variable to turn it off: the text without that box (and the blank lines
 * around it). Any other output is kept.
 */
export function withoutNodeNotice(text: string): string {
  return text.replace(/\n*[ \t]*╔═+╗\n(?:[ \t]*║[^\n]*║\n)+[ \t]*╚═+╝\n*/g, (box) =>
    /Node\.js 20/.test(box) ? '' : box,
  );
}
