// The console's weight, measured on a fresh build: what every reference page loads and what opening the console
// loads, as the README states them (gzip -9), and the same for a journey's page, as the contributing guide states
// them, so the stated figures stay true.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { buildConsole, consoleConfig, controlLinks, kilobytes, withConsole } from './console-build.js';

const out = mkdtempSync(join(tmpdir(), 'ramp-console-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the references' console", () => {
  it('weighs what the README says, on every page and when first opened', () => {
    const weight = buildConsole(out);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const stated = `adds ${kilobytes(weight.onEveryPage)} (gzip) to each reference page and ${kilobytes(weight.whenOpened)} when first opened`;
    expect(readme, 'update the README with the measured figures').toContain(stated);
    const guide = readFileSync(join(repoRoot, 'docs', 'guides', 'contributing.md'), 'utf8').replace(/\s+/g, ' ');
    const journeys = `journey's page loads ${kilobytes(weight.journeyPage)} of it, and ${kilobytes(weight.journeyOpened)} when its console is opened`;
    expect(guide, 'update the contributing guide with the measured figures').toContain(journeys);
    // The point of the split: reading a reference or a journey costs little; the rest comes on demand.
    expect(weight.onEveryPage).toBeLessThan(12 * 1024);
    expect(weight.journeyPage).toBeLessThan(12 * 1024);
  });

  it("is added at the end of a reference page, and names the page's API and its operations", () => {
    const doc = JSON.parse(readFileSync(join(repoRoot, 'dist', 'openapi', 'business.json'), 'utf8'));
    const page = withConsole('<html><body><div id="redoc"></div></body></html>', consoleConfig('business', doc));
    expect(page).toMatch(/^<html><body><div id="redoc"><\/div><link [^>]+><script type="application\/json"/);
    const config = JSON.parse(
      /<script type="application\/json" id="ramp-console-config">(.*?)<\/script>/.exec(page)![1]!,
    );
    expect(config.family).toBe('business');
    expect(config.operations).toContain('listBanks');
    expect(config.client.token).toEqual({ operationId: 'createToken', method: 'post', path: '/api/token' });
  });

  it("links each control operation a refusal's next step names to its place in the control API's reference", () => {
    const control = JSON.parse(readFileSync(join(repoRoot, 'dist', 'openapi', 'sandbox.json'), 'utf8'));
    const links = controlLinks(control, 'sandbox.html');
    expect(links.approveUser).toBe('sandbox.html#/users/approveuser');
    expect(Object.keys(links)).toEqual(expect.arrayContaining(['fundUser', 'acceptBankAccount', 'createTenant']));
    const { family: _, ...withoutFamily } = control;
    expect(() => controlLinks({ ...withoutFamily, paths: {} }, 'sandbox.html')).toThrow(
      /The refusal catalog names control operations the control API lacks: .*approveUser/,
    );
  });
});
