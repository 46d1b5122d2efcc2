// The per-operation samples the docs show read the README's variables, call its addresses and import each
// name from where the README does (the browser test checks the rendered pages the same way).
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../src/client/lookup/index.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { unlikeReadme } from './readme-agreement.js';
import { sampleForDocs } from './samples.js';

describe.each(allApiFamilies().map((api) => [api.name, api] as const))('the %s samples', (name, api) => {
  it("use the README's variable names, ports and imports", () => {
    const doc = readBundle(api);
    const problems = new Set(listOperations(doc).flatMap((entry) => unlikeReadme(sampleForDocs(name, doc, entry))));
    expect([...problems]).toEqual([]);
  });
});

describe('unlikeReadme', () => {
  const readme =
    "const baseUrl = process.env.SANDBOX_URL ?? 'http://127.0.0.1:4020';\nimport { createSandboxClient } from 'ramp-api/sandbox';\nSANDBOX_ADMIN_TOKEN";
  it('accepts what the README uses', () => {
    expect(
      unlikeReadme(
        "import { createSandboxClient } from 'ramp-api/sandbox';\nprocess.env.SANDBOX_URL ?? 'http://127.0.0.1:4020'; process.env.SANDBOX_ADMIN_TOKEN",
        readme,
      ),
    ).toEqual([]);
  });
  it('names another variable, another default, another port and another import', () => {
    expect(
      unlikeReadme(
        "import { createSandboxClient } from 'ramp-api';\nprocess.env.SANDBOX_API_URL ?? 'http://127.0.0.1:4010'; process.env.SANDBOX_URL ?? 'http://127.0.0.1:4021'",
        readme,
      ),
    ).toEqual([
      'SANDBOX_API_URL is not a variable the README names',
      "SANDBOX_URL defaults to 'http://127.0.0.1:4021', in the README to 'http://127.0.0.1:4020'",
      '127.0.0.1:4010 is not an address the README uses',
      '127.0.0.1:4021 is not an address the README uses',
      'the README never imports createSandboxClient from ramp-api',
    ]);
  });
});
