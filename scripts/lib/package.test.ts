// `npm pack` gives a package that a separate strict ESM TypeScript project can install, import from every
// entry point, compile and run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './apis.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const consumer = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createBusinessClient, createV1Client, orThrow, ApiError, type BusinessClient } from 'ramp-api';
import { createBusinessClient as fromBusiness, type components } from 'ramp-api/business';
import { createV1Client as fromV1, type paths } from 'ramp-api/v1';
import { createWebhookReceiver, deliverySchedule, eventNames, type EventName } from 'ramp-api/webhooks';

const api: BusinessClient = createBusinessClient({ baseUrl: 'https://api.example.co', auth: { token: 't' } });
const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:4010' });
type Wallet = components['schemas']['CustodyWallet'];
type PayoutPath = keyof paths;
const first: EventName = eventNames[0]!;
const receiver = createWebhookReceiver({ handlers: { 'user.created': ({ payload }) => void payload } });
async function typed(): Promise<Wallet[]> {
  return orThrow(api.listCustodyWallets({ params: { path: { clientId: 'c', userId: 'u' } } }));
}
const require = createRequire(import.meta.url);
const bundle = JSON.parse(readFileSync(require.resolve('ramp-api/openapi/business.json'), 'utf8')) as { info: { version: string } };
const path: PayoutPath = '/api/v1/admin/fiats/{user_id}/payout';
console.log(JSON.stringify({
  clients: [typeof api.listBanks, typeof v1.createPayout, typeof fromBusiness, typeof fromV1, typeof typed],
  first, path, calls: deliverySchedule().calls, receiver: typeof receiver.node,
  apiError: new ApiError({ operationId: 'x', method: 'GET', path: '/', status: 400, body: {} }).status,
  businessVersion: bundle.info.version,
}));
`;

describe('the packed package', () => {
  it('installs into a strict ESM TypeScript project that imports every entry point, compiles and runs', () => {
    const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
    execFileSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: repoRoot });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/lib/index.js', 'dist/lib/webhooks/index.d.ts', 'dist/openapi/v1.json', 'dist/openapi/business.yaml']));
    // The sandbox entry point, its `ramp-api` command and the bundles it serves.
    expect(files).toEqual(expect.arrayContaining(['dist/lib/sandbox/index.js', 'dist/lib/sandbox/index.d.ts', 'dist/lib/sandbox/bin.js', 'dist/openapi/sandbox.json']));
    expect(files.some((f) => f.includes('.test.') || f.includes('testing/'))).toBe(false);

    const project = join(work, 'consumer');
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, 'ramp-api'), { recursive: true });
    mkdirSync(join(modules, '@types'), { recursive: true });
    execFileSync('tar', ['-xzf', join(work, packed[0]!.filename), '-C', join(modules, 'ramp-api'), '--strip-components=1']);
    // Dependencies come from this checkout, so the test needs no registry.
    for (const dep of ['openapi-fetch', 'openapi-typescript-helpers', 'undici-types', '@types/node']) {
      symlinkSync(join(repoRoot, 'node_modules', dep), join(modules, dep), 'dir');
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023'], types: ['node'], outDir: 'out', skipLibCheck: false },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(join(project, 'consumer.ts'), consumer);
    execFileSync(tsc, ['-p', project], { cwd: project, encoding: 'utf8' });
    const output = execFileSync(process.execPath, [join(project, 'out', 'consumer.js')], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      clients: ['function', 'function', 'function', 'function', 'function'],
      first: 'user.accepted_terms',
      path: '/api/v1/admin/fiats/{user_id}/payout',
      calls: 3,
      receiver: 'function',
      apiError: 400,
      businessVersion: '1.0',
    });
  }, 60_000);
});
