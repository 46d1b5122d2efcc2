// The lint configuration can fail: each house rule in redocly.yaml fires on a copy of a description broken on purpose.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { redoclyBin, redoclyEnv } from '../openapi/redocly.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function edit(relative: string, from: string | RegExp, to: string): void {
  const file = join(work, relative);
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`Fixture edit did not apply to ${relative}: ${String(from)}`);
  writeFileSync(file, next);
}

/** Rule ids reported by `redocly lint business` in the broken copy. */
function lintRuleIds(): string[] {
  let stdout: string;
  try {
    stdout = execFileSync(redoclyBin, ['lint', 'business', '--format=json'], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: redoclyEnv,
    });
  } catch (error) {
    stdout = String((error as { stdout?: string }).stdout ?? '');
  }
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string }[] };
  return report.problems.map((p) => p.ruleId);
}

describe('redocly.yaml house rules', () => {
  it('report a property without description, an untagged operation, a missing security decision, an unexplained x-inferred, an invalid example, a missing 4XX, an undeclared required property, a JWT in an example, an undocumented refusal, a range status and an example name shared by a request and a response', () => {
    cpSync(join(repoRoot, 'openapi'), join(work, 'openapi'), {
      recursive: true,
      filter: (src) => !src.endsWith('.test.ts'),
    });
    cpSync(join(repoRoot, 'redocly.yaml'), join(work, 'redocly.yaml'));
    const paths = 'openapi/business/paths';
    const schemas = 'openapi/business/components/schemas';
    edit(`${schemas}/CreateCustodyWalletRequest.yaml`, /\n {4}description: Blockchain network of the wallet.*\n/, '\n');
    edit(`${schemas}/CreateCustodyWalletRequest.yaml`, 'required: [token]', 'required: [token, tokenSymbol]');
    edit(`${paths}/api_infoClient.yaml`, /\n {2}tags: \[Client\]\n/, '\n');
    edit(`${paths}/api_parameters_banks.yaml`, /\n {2}security: \[\]\n/, '\n');
    edit(`${schemas}/ErrorBody.yaml`, /Inferred:/, 'Guessed:');
    edit(
      'openapi/business/components/examples/CustodyWalletBalanceUsdc.yaml',
      "balance: '1520.750000'",
      'balance: 1520.75',
    );
    edit(
      'openapi/business/components/examples/WebhookDeactivated.yaml',
      'url: https://hooks.cafetera-andina.example/ramp',
      'url: https://hooks.cafetera-andina.example/ramp?access=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl',
    );
    // listWebhooks loses its 400, 401, 403 and 421: no 4xx at all, and no refusal status for its uuid path parameter.
    edit(
      `${paths}/api_webhooks_{clientId}.yaml`,
      /\n {4}'400':\n {6}\$ref: \.\.\/components\/responses\/BadRequest\.yaml\n {4}'401':\n {6}\$ref: \.\.\/components\/responses\/Unauthorized\.yaml\n {4}'403':\n {6}\$ref: \.\.\/components\/responses\/OtherClient\.yaml\n {4}'421':\n {6}\$ref: \.\.\/components\/responses\/UnknownHost\.yaml\n/,
      '\n',
    );
    edit(`${paths}/api_parameters_banks.yaml`, "'429':", '4XX:');
    edit(`${paths}/api_token.yaml`, 'requestBodyNotShown:', 'bodyNotShown:');

    const ruleIds = lintRuleIds();
    expect(ruleIds).toEqual(
      expect.arrayContaining([
        'ramp/property-description',
        'ramp/operation-has-tag',
        'rule/operation-has-security-decision',
        'ramp/inferred-explained',
        'no-invalid-media-type-examples',
        'operation-4xx-response',
        'ramp/required-properties-defined',
        'ramp/no-secrets-in-examples',
        'ramp/refusal-documented',
        'ramp/no-status-ranges',
        'ramp/example-names-distinct',
      ]),
    );
  });
});
