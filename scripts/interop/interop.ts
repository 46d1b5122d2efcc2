// `npm run interop`: other tools' view of the bundles. Generates clients with orval (fetch and axios),
// @hey-api/openapi-ts and swagger-typescript-api into a temporary folder and compiles each under strict
// TypeScript; then runs Specmatic's contract tests (from the examples, and its generative tests) for each
// bundle against a Prism mock, and against the sandbox with a tenant's token and records (a Specmatic
// dictionary). Against the sandbox, a failure the sandbox causes (a 5xx, an answer that breaks the description,
// a refusal no rule below explains) fails the run; the others are listed with why they are not the sandbox's.
// Prints one table and exits non-zero if any tool fails.
// `-- --keep` keeps the temporary folder; `-- --no-specmatic` skips Specmatic; `-- --no-generative` runs
// Specmatic from the examples only; `-- --only-sandbox` runs only Specmatic against the sandbox; `-- --baseline`
// checks the released openapi/baseline/ instead (without the sandbox).
import { spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { readBundleFile } from '../../src/sandbox/contract/document.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { registerExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { type ApiFamily, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { startPrism } from '../openapi/prism.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
    .version;
const args = process.argv.slice(2);

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command without a shell, keeping the last 64 KiB of its output (and all of it in `logFile`, if given). */
function run(
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

interface Generator {
  tool: string;
  pkg: string;
  /** The command line that writes the client for one bundle into `out`. */
  command: (bundle: string, out: string, api: string) => [string, string[]];
}

const GENERATORS: Generator[] = [
  {
    tool: 'orval (fetch client)',
    pkg: 'orval',
    command: (bundle, out, api) => [
      bin('orval'),
      ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'fetch'],
    ],
  },
  {
    tool: 'orval (axios client)',
    pkg: 'orval',
    command: (bundle, out, api) => [
      bin('orval'),
      ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'axios'],
    ],
  },
  {
    tool: '@hey-api/openapi-ts',
    pkg: '@hey-api/openapi-ts',
    command: (bundle, out, api) => [
      bin('openapi-ts'),
      ['--input', bundle, '--output', join(out, api), '--no-log-file'],
    ],
  },
  {
    tool: 'swagger-typescript-api',
    pkg: 'swagger-typescript-api',
    command: (bundle, out, api) => [
      bin('swagger-typescript-api'),
      ['generate', '--path', bundle, '--output', join(out, api), '--name', `${api}.ts`],
    ],
  },
];

/** Strict settings a consuming team would use; modules resolve from this repository's node_modules (axios). */
const strictTsconfig = (include: string) => ({
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    skipLibCheck: true,
    types: [],
    baseUrl: '.',
    paths: { '*': [join(repoRoot, 'node_modules', '*')] },
  },
  include: [`${include}/**/*.ts`],
});

const firstLines = (text: string, n = 6) =>
  text
    .split('\n')
    .filter((l) => l.trim() && !/npm warn/.test(l))
    .slice(0, n)
    .join('\n    ');

interface Row {
  tool: string;
  version: string;
  api: string;
  result: string;
  ok: boolean;
  detail?: string;
}

async function generators(apis: ApiFamily[], work: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, generator] of GENERATORS.entries()) {
    const out = join(work, `client-${i}`);
    const version = versionOf(generator.pkg);
    const generated: string[] = [];
    for (const api of apis) {
      const [command, commandArgs] = generator.command(join(work, `${api.name}.json`), out, api.name);
      const result = await run(command, commandArgs, { cwd: work });
      if (result.code === 0) generated.push(api.name);
      else
        rows.push({
          tool: generator.tool,
          version,
          api: api.name,
          ok: false,
          result: `generation failed (exit ${result.code})`,
          detail: firstLines(result.output),
        });
    }
    if (!generated.length) continue;
    const tsconfig = join(work, `tsconfig.client-${i}.json`);
    writeFileSync(tsconfig, JSON.stringify(strictTsconfig(`client-${i}`), null, 2));
    const compiled = await run(bin('tsc'), ['-p', tsconfig], { cwd: work });
    const errors = (compiled.output.match(/error TS\d+/g) ?? []).length;
    for (const api of generated) {
      const mine = compiled.output.split('\n').filter((l) => l.includes(`${api}`) && l.includes('error TS'));
      const ok = compiled.code === 0;
      rows.push({
        tool: generator.tool,
        version,
        api,
        ok,
        result: ok
          ? 'generated; compiles under strict TypeScript'
          : `generated; does not compile (${mine.length || errors} TypeScript errors)`,
        detail: ok ? undefined : firstLines(mine.join('\n') || compiled.output),
      });
    }
  }
  return rows;
}

/** Specmatic's summary line: `Tests run: 14, Successes: 14, Failures: 0, WIP: 0, Errors: 0`. */
function specmaticCounts(output: string) {
  const match = [
    ...output.matchAll(/Tests run: (\d+), Successes: (\d+), Failures: (\d+)(?:, WIP: (\d+))?, Errors: (\d+)/g),
  ].at(-1);
  return match
    ? { tests: Number(match[1]), passed: Number(match[2]), failed: Number(match[3]) + Number(match[5]) }
    : undefined;
}

async function specmatic(apis: ApiFamily[], work: string): Promise<Row[]> {
  const jar = join(repoRoot, 'node_modules', 'specmatic', 'specmatic.jar');
  const version = versionOf('specmatic');
  const java = await run('java', ['-version']);
  if (java.code !== 0) {
    return [
      {
        tool: 'Specmatic',
        version,
        api: 'both',
        ok: false,
        result: 'not run: no `java` on PATH (apt-get install -y default-jre-headless)',
        detail: firstLines(java.output),
      },
    ];
  }
  const modes = args.includes('--no-generative') ? [false] : [false, true];
  const rows: Row[] = [];
  // The service's two families: Prism stands in for the service. The control API is the sandbox's own, not the
  // service's; a Prism mock of it proves nothing about the sandbox (and Specmatic's answers from Prism's
  // examples fail where the examples do not chain), so it is not run here.
  for (const api of apis.filter((a) => a.name !== SANDBOX_FAMILY)) {
    // Prism watches the file it serves: serve a copy, not dist/ (which bundling rewrites).
    const served = join(work, `served-${api.name}.json`);
    copyFileSync(join(work, `${api.name}.json`), served);
    const prism = await startPrism({ bundle: served });
    try {
      for (const generative of modes) {
        const result = await run(
          'java',
          ['-jar', jar, 'test', join(work, `${api.name}.json`), `--testBaseURL=${prism.url}`],
          {
            cwd: work,
            env: { SPECMATIC_DISABLE_TELEMETRY: 'true', SPECMATIC_GENERATIVE_TESTS: String(generative) },
            timeoutMs: 900_000,
          },
        );
        const counts = specmaticCounts(result.output);
        const mode = generative ? 'generative tests' : 'tests from the examples';
        const ok = result.code === 0 && !!counts && counts.failed === 0 && counts.tests > 0;
        const rules = [...new Set(result.output.match(/OAS\d{4}[^\n]*/g) ?? [])];
        rows.push({
          tool: `Specmatic (${mode}) against Prism`,
          version,
          api: api.name,
          ok,
          result: counts
            ? `${counts.tests} tests, ${counts.passed} passed, ${counts.failed} failed`
            : `no summary (exit ${result.code})`,
          detail: ok
            ? undefined
            : firstLines(
                [...rules, ...result.output.split('\n').filter((l) => /fail|error|expected/i.test(l))].join('\n'),
                10,
              ),
        });
      }
    } finally {
      await prism.stop();
    }
  }
  return rows;
}

/**
 * Why a refusal the sandbox answered to a Specmatic test is right, by the refusal's `error` code: the request
 * Specmatic made up cannot succeed against any state, and the answer is the status the description documents.
 * A failed test whose refusal is not here is counted as the sandbox's.
 */
const EXPLAINED_REFUSALS: Record<string, { why: string; scenario?: RegExp } | { why: string; scenario?: RegExp }[]> = {
  invalid_credentials: {
    why: "the token call with the description's example body, an empty object (the source does not show the body); no service issues a token without credentials (documented 400/401)",
    scenario: /\/token -> 200 with the request from the example 'bodyNotShown'/,
  },
  invalid_request: [
    {
      why: "a wallet transfer sent as the description's empty example body (the source does not show the body): the sandbox's own fields are missing (documented 400)",
      scenario: /\/wallet\/transfer\/.* -> 200 with the request from the example 'bodyNotShown'/,
    },
    {
      why: 'an endpoint whose url is random text up to its 500-character maxLength: Specmatic does not generate values for `format: uri`, and a url must be an absolute URI (documented 422)',
      scenario: /\/integration-endpoints -> 201/,
    },
  ],
  tier_limit_exceeded: {
    why: "an on-ramp amount Specmatic picked up to 1.8e308 COP, over the user's tier limit (the sandbox's default: 10^15 COP, the most a balance holds): the source's own 422 for an operation over the compliance tier limits",
  },
  insufficient_funds: {
    why: "an on-ramp paid from the user's balance (INVERSE) for more than it holds: the source's own 400, insufficient funds in the origin",
  },
};

/** The reason a failed test is not the sandbox's, or undefined when none applies. */
function explanation(f: FailedTest): string | undefined {
  const rules = f.status !== undefined && f.status < 500 && f.error ? [EXPLAINED_REFUSALS[f.error] ?? []].flat() : [];
  return rules.find((rule) => !rule.scenario || rule.scenario.test(f.scenario))?.why;
}

/** A sandbox with a tenant and every record the tests name, and a Specmatic dictionary of them per bundle. */
async function sandboxFixture(): Promise<{
  sandbox: Sandbox;
  token: (api: string) => Promise<string>;
  dictionary: (api: string) => unknown;
}> {
  const sandbox = await startSandbox({ memory: true });
  const control = createSandboxClient({ baseUrl: sandbox.url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Specmatic' } }));
  const clientId = tenant.clientId;
  const userId = await registerExampleUser(sandbox.url, tenant);
  await orThrow(control.approveUser({ params: { path: { userId } } }));
  const token = (api: string) =>
    sandboxToken(
      sandbox.url,
      api === 'business' ? 'business' : 'v1',
      api === 'business' ? tenant.businessCredentials : tenant.v1Credentials,
    );
  const openWallet = async () => {
    const answer = await fetch(`${sandbox.url}/api/b2b2b/${clientId}/wallet/custody/${userId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await token('business')}` },
      body: JSON.stringify({ token: 'USDC' }),
    });
    return ((await answer.json()) as { id: string }).id;
  };
  const [walletId, otherWalletId] = [await openWallet(), await openWallet()];
  await orThrow(control.fundWallet({ params: { path: { walletId } }, body: { amount: 1e12 } }));
  const account = await orThrow(control.createBankAccount({ body: { clientId, userId } }));
  await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
  await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e15, currency: 'COP' } }));
  const hook = await orThrow(
    control.createBusinessWebhook({ body: { clientId, url: 'https://hooks.example/ramp', process: 'ramp' } }),
  );
  const external = await orThrow(control.createExternalWallet({ body: { userId } }));
  // The on-ramp examples name their destination wallet: those IDs become the user's wallets too.
  const v1 = readBundleFile('v1') as any;
  const onRampExamples = Object.values(
    v1.paths['/api/v1/admin/fiats/{user_id}/onramp'].post.requestBody.content['application/json'].examples ?? {},
  ) as any[];
  const exampleWallets = new Set<string>(
    onRampExamples
      .map(
        (e) =>
          (e.value ?? v1.components.examples[String(e.$ref).split('/').pop()!]?.value)?.destination?.externalWalletId,
      )
      .filter(Boolean),
  );
  for (const externalWalletId of exampleWallets)
    await orThrow(control.createExternalWallet({ body: { userId, externalWalletId } }));
  // Specmatic's dictionary: values by schema name, and parameters by where they go.
  const dictionary = (api: string) =>
    api === 'business'
      ? {
          TokenRequest: tenant.businessCredentials,
          CreateCustodyWalletRequest: { token: 'USDC' },
          CreateWalletTransferRequest: { walletOriginId: walletId, walletDestinationId: otherWalletId, amount: 1 },
          PARAMETERS: {
            PATH: { clientId, userId, walletId, webhook_id: hook.id },
            QUERY: { userId, originWallet: walletId },
          },
        }
      : {
          ClientTokenRequest: tenant.v1Credentials,
          // A receiver where the sandbox delivers (loopback: its default endpoint networks); the port answers nothing.
          CreateIntegrationEndpointRequest: { url: 'http://127.0.0.1:9/ramp/events' },
          CreatePayoutRequest: { currency: 'COP', destinationId: account.accountId },
          CreateOnRampRequest: { symbolOrigin: 'COP', symbolDestination: 'USDC', bankCode: '1007' },
          OnRampDestination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId },
          PARAMETERS: { PATH: { user_id: userId }, HEADER: { 'x-integration-register': tenant.integrationRegister } },
        };
  return { sandbox, token, dictionary };
}

interface FailedTest {
  scenario: string;
  status: number | undefined;
  error: string | undefined;
}

/** The failed tests in a Specmatic log, each with the sandbox's answer (status and `error` code). */
function failedTests(log: string): FailedTest[] {
  return log
    .split('--------------------')
    .filter((chunk) => / has FAILED/.test(chunk))
    .map((chunk) => {
      const answer = chunk.slice(chunk.indexOf('Response at'));
      return {
        scenario: /Scenario: (.*?) has FAILED/.exec(chunk)![1]!.replace(/ where .*/, ''),
        status: Number(/Response at [^\n]*\n\s+(\d{3})/.exec(answer)?.[1]) || undefined,
        error: /"error": "([^"]+)"/.exec(answer)?.[1],
      };
    });
}

async function specmaticAgainstSandbox(apis: ApiFamily[], work: string): Promise<Row[]> {
  const jar = join(repoRoot, 'node_modules', 'specmatic', 'specmatic.jar');
  const version = versionOf('specmatic');
  if ((await run('java', ['-version'])).code !== 0) return [];
  const modes = args.includes('--no-generative') ? [false] : [false, true];
  const rows: Row[] = [];
  const fixture = await sandboxFixture();
  try {
    // The service's families only: the control API belongs to the sandbox itself.
    for (const api of apis.filter((a) => a.name !== SANDBOX_FAMILY)) {
      // Specmatic picks up `<spec>_dictionary.json` beside the spec.
      const spec = join(work, `sandbox-${api.name}.json`);
      copyFileSync(join(work, `${api.name}.json`), spec);
      writeFileSync(
        join(work, `sandbox-${api.name}_dictionary.json`),
        JSON.stringify(fixture.dictionary(api.name), null, 2),
      );
      for (const generative of modes) {
        const mode = generative ? 'generative tests' : 'tests from the examples';
        const logFile = join(work, `specmatic-sandbox-${api.name}-${generative ? 'generative' : 'examples'}.log`);
        const violationsBefore = fixture.sandbox.violations.length;
        // A fresh token per run: a Business token lives 5 minutes. Specmatic reads it from the variable named after the scheme.
        const result = await run('java', ['-jar', jar, 'test', spec, `--testBaseURL=${fixture.sandbox.url}`], {
          cwd: work,
          env: {
            SPECMATIC_DISABLE_TELEMETRY: 'true',
            SPECMATIC_GENERATIVE_TESTS: String(generative),
            bearerAuth: await fixture.token(api.name),
          },
          timeoutMs: 1_800_000,
          logFile,
        });
        const counts = specmaticCounts(result.output);
        const failed = failedTests(readFileSync(logFile, 'utf8'));
        const violations = fixture.sandbox.violations.slice(violationsBefore);
        const sandboxs = failed.filter((f) => explanation(f) === undefined);
        const explained = new Map<string, number>();
        for (const f of failed.filter((f) => !sandboxs.includes(f))) {
          const key = `${f.status} ${f.error}: ${explanation(f)}`;
          explained.set(key, (explained.get(key) ?? 0) + 1);
        }
        const ok =
          !!counts &&
          counts.tests > 0 &&
          sandboxs.length === 0 &&
          violations.length === 0 &&
          counts.failed === failed.length;
        rows.push({
          tool: `Specmatic (${mode}) against the sandbox`,
          version,
          api: api.name,
          ok,
          result: counts
            ? `${counts.tests} tests, ${counts.passed} passed, ${counts.failed} failed (${counts.failed - sandboxs.length} not the sandbox's, ${sandboxs.length} the sandbox's)`
            : `no summary (exit ${result.code})`,
          detail:
            [
              ...[...explained].map(([why, n]) => `${n} x ${why}`),
              ...sandboxs
                .slice(0, 10)
                .map((f) => `THE SANDBOX'S: ${f.scenario}: answered ${f.status ?? 'nothing'} ${f.error ?? ''}`),
              ...violations.slice(0, 10).map((v) => `VIOLATION: ${v}`),
            ].join('\n    ') || undefined,
        });
      }
    }
  } finally {
    await fixture.sandbox.close();
  }
  return rows;
}

const apis = bundleAll();
const work = mkdtempSync(join(tmpdir(), 'ramp-interop-'));
try {
  for (const api of apis)
    copyFileSync(
      args.includes('--baseline') ? join(repoRoot, 'openapi', 'baseline', `${api.name}.json`) : api.bundleJson,
      join(work, `${api.name}.json`),
    );
  const started = Date.now();
  const onlySandbox = args.includes('--only-sandbox');
  const specmaticRows = args.includes('--no-specmatic')
    ? []
    : [
        ...(onlySandbox ? [] : await specmatic(apis, work)),
        ...(args.includes('--baseline') ? [] : await specmaticAgainstSandbox(apis, work)),
      ];
  const rows = [...(onlySandbox ? [] : await generators(apis, work)), ...specmaticRows];
  console.log('| Tool | Version | Bundle | Result |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.tool} | ${r.version} | ${r.api} | ${r.ok ? '' : 'FAILED: '}${r.result} |`);
  for (const r of rows.filter((r) => r.detail))
    console.log(`\n${r.tool} (${r.api})${r.ok ? ", failures that are not the sandbox's" : ''}:\n    ${r.detail}`);
  console.log(
    `\n${rows.filter((r) => r.ok).length} of ${rows.length} checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s${args.includes('--keep') ? `; output kept in ${work}` : ''}`,
  );
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
}
