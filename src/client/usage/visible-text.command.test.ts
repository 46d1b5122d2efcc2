// `npx ramp-api usage --check NEW --from FILE` as a process, given names that would forge its report: a consumer's
// name and the file:line of a read holding a line break, a screen clear and a terminal hyperlink, and a description
// whose title holds the same. What it prints shows them escaped, and its last line is its own verdict.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER, payoutIdReader, TERMINAL_ATTACK, TERMINAL_ATTACKS } from '../../testing/hostile-text.js';
import { readBundleJson } from '../../testing/repo.js';
import { makeUsageProject, runUsageCommand } from '../../testing/usage-project.js';
import { serializeUsage } from './usage-file.js';
import { visibleText } from './visible-text.js';

const project = makeUsageProject('pay-app', {});
afterAll(() => rmSync(project, { recursive: true, force: true }));
const usage = (...args: string[]) => runUsageCommand(project, ...args);

const consumer = `pay-app${TERMINAL_ATTACK}`;
const site = `src/pay.ts${TERMINAL_ATTACKS.hyperlink}:8`;
const usageFile = join(project, 'forged-usage.json');
writeFileSync(usageFile, serializeUsage(payoutIdReader(consumer, site, { v1: `sha256:${'a'.repeat(64)}` })));

/** The v1 bundle without the payout's `id`, and with `title`. */
function newerV1(title?: string): string {
  const doc = readBundleJson<Record<string, any>>('v1');
  delete doc.components.schemas.Payout.properties.id;
  doc.components.schemas.Payout.required = doc.components.schemas.Payout.required.filter((n: string) => n !== 'id');
  if (title) doc.info.title = title;
  const file = join(project, `v1-${title ? 'titled' : 'next'}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('usage --check with names that would forge its report', () => {
  it('prints them escaped, each line its own, and ends with the real verdict', async () => {
    const { code, stdout } = await usage('--check', newerV1(), '--from', usageFile);
    expect(code).toBe(1);
    expect(stdout.replace(/\n/g, '')).not.toMatch(CONTROL_CHARACTER);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`1 breaking change(s) break ${visibleText(consumer)}.`);
    expect(lines.at(-2)).toBe(`    breaks ${visibleText(consumer)} (${visibleText(site)})`);
    expect(lines.filter((line) => line.startsWith('✔') || line.startsWith('No breaking change'))).toEqual([]);
  }, 60_000);

  it("names a description whose title is none of the project's in one line, with no control character", async () => {
    const { code, stdout, stderr } = await usage('--check', newerV1(`Ramp${TERMINAL_ATTACK}`), '--from', usageFile);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.trimEnd()).not.toMatch(CONTROL_CHARACTER);
    expect(stderr).toContain(`describes "Ramp ${visibleText(TERMINAL_ATTACK.slice(1))}"`);
  }, 60_000);
});
