// The contract suite can fail: pointed at a local "deployment" that breaks the contract on purpose, it
// fails and names the operation and the field that broke.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundle, repoRoot } from '../scripts/openapi/apis.js';
import { selectedFamilies } from '../scripts/openapi/targets.js';
import { resolveRef } from '../src/client/lookup/index.js';
import { operationById } from '../src/sandbox/contract/lookup.js';
import { json, type LocalServer, startLocalServer } from '../src/testing/local-server.js';

const business = selectedFamilies().find((a) => a.name === 'business');
let server: LocalServer;
const reports = mkdtempSync(join(tmpdir(), 'ramp-broken-'));

/** The first example of an operation's success answer, from the description. */
function successExample(operationId: string): any {
  const doc = readBundle(business!);
  const responses = operationById(doc, operationId).operation.responses;
  const ok = resolveRef(doc, responses[Object.keys(responses).find((k) => k.startsWith('2'))!]);
  return structuredClone(resolveRef(doc, Object.values(ok.content['application/json'].examples)[0]).value);
}

beforeAll(async () => {
  const transfers = successExample('listWalletTransfers');
  const wallets = successExample('listCustodyWallets');
  const accounts = successExample('listBankAccounts');
  server = await startLocalServer((req, res) => {
    if (!req.headers.authorization && req.url !== '/api/parameters/banks') return json(res, 401, {});
    const url = req.url ?? '';
    if (/\/wallet\/transfer\//.test(url))
      return json(
        res,
        200,
        Array.from({ length: 11 }, () => transfers[0]),
      ); // 11 > at most 10
    if (/\/wallet\/custody\/[^/]+$/.test(url)) return json(res, 200, [{ ...wallets[0], status: undefined }]); // required field missing
    if (url.startsWith('/api/accounts/')) return json(res, 200, [{ ...accounts[0], accountType: 42 }]); // wrong type
    if (url.endsWith('/balance')) return json(res, 200, successExample('getCustodyWalletBalance'));
    if (url === '/api/parameters/banks') return json(res, 200, successExample('listBanks'));
    return json(res, 200, {});
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(reports, { recursive: true, force: true });
});

describe.skipIf(!business)('the contract suite against a deployment that breaks the contract', () => {
  it('fails, naming the operation and the field', async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        join(repoRoot, 'node_modules', '.bin', 'vitest'),
        ['run', 'contract-tests/contract.test.ts', '--reporter=verbose'],
        {
          cwd: repoRoot,
          env: {
            ...process.env,
            BUSINESS_API_URL: server.url,
            BUSINESS_API_TOKEN: 'broken-server-test-token',
            CONTRACT_FAMILIES: 'business',
            CONTRACT_REPORT_DIR: reports,
            CONTRACT_SKIP_BUNDLE: '1',
            NO_COLOR: '1',
            FORCE_COLOR: '0',
          },
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/listWalletTransfers[\s\S]*must NOT have more than 10 items/);
    expect(output).toMatch(/listCustodyWallets[\s\S]*must have required property 'status'/);
    expect(output).toMatch(/listBankAccounts[\s\S]*\/0\/accountType must be string/);
    // The operations that keep the contract pass.
    expect(output).toMatch(/✓ .*listBanks .*answers with a documented status/);
  }, 60_000);
});
