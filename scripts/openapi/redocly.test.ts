// Redocly's Node 20 end-of-life box is dropped from what the CLI prints, and nothing else is.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './apis.js';
import { redoclyBin, redoclyEnv, withoutNodeNotice } from './redocly.js';

describe("Redocly CLI's Node 20 notice", () => {
  it('is dropped from a real run, the report kept', () => {
    const run = spawnSync(redoclyBin, ['lint', 'sandbox'], { cwd: repoRoot, env: redoclyEnv, encoding: 'utf8' });
    const stderr = run.stderr;
    if (process.versions.node.startsWith('20.')) expect(stderr).toContain('Node.js 20 support is ending');
    const kept = withoutNodeNotice(stderr);
    expect(kept).not.toMatch(/Node\.js 20|╔|╚/);
    expect(kept).toContain('openapi/sandbox/openapi.yaml: validated in');
  });

  it('keeps any other boxed text', () => {
    const other = 'a\n  ╔══╗\n  ║ hi ║\n  ╚══╝\nb\n';
    expect(withoutNodeNotice(other)).toBe(other);
  });
});
