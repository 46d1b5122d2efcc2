// Redocly CLI found where this package is installed, or a one-line error saying how to install it; and its Node 20
// end-of-life box dropped from what it prints, and nothing else.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shippedWorkflowsDir } from './command.js';
import { UsageError } from './command-output.js';
import { findRedocly, REDOCLY_VERSION, withoutNodeNotice } from './redocly.js';

describe('Redocly CLI', () => {
  it('is the copy installed beside the package', () => {
    const cli = findRedocly(tmpdir());
    const run = spawnSync(process.execPath, [cli.script, '--version'], { env: cli.env, encoding: 'utf8' });
    expect(run.stdout.trim()).toBe(REDOCLY_VERSION);
  });

  it('missing, is named with the command that installs it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-redocly-'));
    try {
      const find = () => findRedocly(empty, pathToFileURL(join(empty, 'x.js')).href);
      expect(find).toThrow(UsageError);
      expect(find).toThrow(`npm i -D @redocly/cli@${REDOCLY_VERSION}`);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});

describe("Redocly CLI's Node 20 notice", () => {
  it('is dropped from a real run, the report kept', () => {
    const cli = findRedocly(tmpdir());
    const bundle = join(shippedWorkflowsDir(), '..', 'openapi', 'sandbox.yaml');
    const run = spawnSync(process.execPath, [cli.script, 'lint', bundle], {
      cwd: cli.cwd,
      env: cli.env,
      encoding: 'utf8',
    });
    const stderr = run.stderr;
    if (process.versions.node.startsWith('20.')) expect(stderr).toContain('Node.js 20 support is ending');
    const kept = withoutNodeNotice(stderr);
    expect(kept).not.toMatch(/Node\.js 20|╔|╚/);
    expect(kept).toContain('sandbox.yaml: validated in');
  });

  it('keeps any other boxed text', () => {
    const other = 'a\n  ╔══╗\n  ║ hi ║\n  ╚══╝\nb\n';
    expect(withoutNodeNotice(other)).toBe(other);
  });
});
