// The fault matrix: local servers that misbehave on purpose, and what the client does for a read
// (GET listBankAccounts) and a create (POST createPayout). The table in the guide docs/guides/first-call.md is
// rendered from what these tests observe: `npm run faults:readme` rewrites it, and this test fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { repoRoot } from '../../testing/repo.js';
import { createBusinessClient, createV1Client, type RampClientOptions, unwrap } from '../index.js';

const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const USER_ID = '3c9f6a2e-1b7d-4f05-9e84-6a2d0c7b5e91';
const payout = { amount: 1500000, currency: 'COP', destinationId: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16' };
const PAYOUT = {
  id: 'c2a9e7f1-5b3d-4e68-8a14-9f0d6b2c3e75',
  status: 'PENDING',
  currency: 'COP',
  amount: 1500000,
  paymentMethod: 'ACH',
};
type Kind = 'read' | 'create';

interface Outcome {
  /** What the caller got: an error class name, or `HTTP n` for a result. */
  got: string;
  operationId: string | null;
  /** Requests the operation's endpoint received (or the error's attempt count when no server answers). */
  attempts: number;
  tokenRequests: number;
  /** Requests that reached another origin (the target of a redirect). */
  elsewhere: number;
}

/** `elsewhere` is the address of a second server, another origin, that counts what reaches it. */
type Handler = (req: IncomingMessage, res: ServerResponse, index: number, elsewhere: string) => void;
interface Fault {
  name: string;
  handler?: Handler;
  /** Answers the token call instead of issuing a token. */
  tokenHandler?: Handler;
  options?: Partial<RampClientOptions>;
  /** Number of concurrent calls (default 1). */
  concurrency?: number;
  expected: Record<Kind, Partial<Outcome>>;
}

const halfBody: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
  res.write('[{"id":"parti');
  setTimeout(() => res.socket?.destroy(), 5);
};
const success = (kind: Kind, res: ServerResponse) =>
  json(res, kind === 'read' ? 200 : 201, kind === 'read' ? [] : PAYOUT);
const redirect =
  (status: number, where: 'same' | 'other'): Handler =>
  (req, res, _i, elsewhere) =>
    void res.writeHead(status, { location: where === 'same' ? req.url : `${elsewhere}${req.url}` }).end();
// 16 MiB of JSON that gzips to about 16 KB: its declared length is well within the 1 MiB limit.
const bomb = gzipSync(Buffer.from(`[${'"x",'.repeat(4 * 1024 * 1024)}"x"]`));
const sendBomb: Handler = (_req, res) =>
  void res
    .writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': String(bomb.length),
    })
    .end(bomb);
const notSent = { got: 'RedirectError', attempts: 1, elsewhere: 0 };

const faults: Fault[] = [
  {
    name: 'connection refused (fixed token)',
    options: { auth: { token: 'fixed-token' } },
    expected: { read: { got: 'NetworkError', attempts: 3 }, create: { got: 'NetworkError', attempts: 1 } },
  },
  {
    name: 'connection refused, token call first',
    expected: {
      read: { got: 'TokenError', operationId: null, attempts: 0 },
      create: { got: 'TokenError', operationId: null, attempts: 0 },
    },
  },
  {
    name: 'connection reset mid-response',
    handler: halfBody,
    expected: { read: { got: 'NetworkError', attempts: 3 }, create: { got: 'NetworkError', attempts: 1 } },
  },
  {
    name: 'no answer (timeout 150 ms)',
    handler: () => {},
    options: { timeoutMs: 150 },
    expected: { read: { got: 'TimeoutError', attempts: 1 }, create: { got: 'TimeoutError', attempts: 1 } },
  },
  {
    name: 'HTTP 500',
    handler: (_q, r) => json(r, 500, {}),
    expected: { read: { got: 'HTTP 500', attempts: 3 }, create: { got: 'HTTP 500', attempts: 1 } },
  },
  {
    name: 'HTTP 502',
    handler: (_q, r) => json(r, 502, {}),
    expected: { read: { got: 'HTTP 502', attempts: 3 }, create: { got: 'HTTP 502', attempts: 1 } },
  },
  {
    name: 'HTTP 503, then success',
    handler: (q, r, i) => (i === 0 ? json(r, 503, {}) : success(q.method === 'GET' ? 'read' : 'create', r)),
    expected: { read: { got: 'HTTP 200', attempts: 2 }, create: { got: 'HTTP 503', attempts: 1 } },
  },
  {
    name: 'HTTP 429 with Retry-After: 1, then success',
    handler: (q, r, i) =>
      i === 0 ? json(r, 429, {}, { 'retry-after': '1' }) : success(q.method === 'GET' ? 'read' : 'create', r),
    expected: { read: { got: 'HTTP 200', attempts: 2 }, create: { got: 'HTTP 429', attempts: 1 } },
  },
  {
    name: 'HTTP 429 without Retry-After, every time',
    handler: (_q, r) => json(r, 429, {}),
    expected: { read: { got: 'HTTP 429', attempts: 3 }, create: { got: 'HTTP 429', attempts: 1 } },
  },
  {
    name: 'malformed JSON (HTTP 200)',
    handler: (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"id": '),
    expected: {
      read: { got: 'ResponseFormatError', attempts: 1 },
      create: { got: 'ResponseFormatError', attempts: 1 },
    },
  },
  {
    name: 'non-JSON content type (HTML, HTTP 200)',
    handler: (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'),
    expected: {
      read: { got: 'ResponseFormatError', attempts: 1 },
      create: { got: 'ResponseFormatError', attempts: 1 },
    },
  },
  {
    name: 'oversized body (4 KiB, limit 1 KiB)',
    handler: (_q, r) => json(r, 200, { pad: 'x'.repeat(4096) }),
    options: { maxResponseBytes: 1024 },
    expected: {
      read: { got: 'ResponseTooLargeError', attempts: 1 },
      create: { got: 'ResponseTooLargeError', attempts: 1 },
    },
  },
  {
    name: 'HTTP 307 to the same address',
    handler: redirect(307, 'same'),
    expected: { read: notSent, create: notSent },
  },
  {
    name: 'HTTP 308 to the same address',
    handler: redirect(308, 'same'),
    expected: { read: notSent, create: notSent },
  },
  { name: 'HTTP 307 to another origin', handler: redirect(307, 'other'), expected: { read: notSent, create: notSent } },
  { name: 'HTTP 308 to another origin', handler: redirect(308, 'other'), expected: { read: notSent, create: notSent } },
  {
    name: 'token call answered 307 to another origin',
    handler: (q, r) => success(q.method === 'GET' ? 'read' : 'create', r),
    tokenHandler: redirect(307, 'other'),
    expected: {
      read: { got: 'TokenError', operationId: null, attempts: 0, elsewhere: 0 },
      create: { got: 'TokenError', operationId: null, attempts: 0, elsewhere: 0 },
    },
  },
  {
    name: 'gzip answer of 16 KB inflating to 16 MiB (limit 1 MiB)',
    handler: sendBomb,
    options: { maxResponseBytes: 1024 * 1024 },
    expected: {
      read: { got: 'ResponseTooLargeError', attempts: 1 },
      create: { got: 'ResponseTooLargeError', attempts: 1 },
    },
  },
  {
    name: 'token source that never answers (timeout 150 ms)',
    handler: (q, r) => success(q.method === 'GET' ? 'read' : 'create', r),
    options: { timeoutMs: 150, auth: { getToken: () => new Promise<string>(() => {}) } },
    expected: { read: { got: 'TimeoutError', attempts: 0 }, create: { got: 'TimeoutError', attempts: 0 } },
  },
  {
    name: 'HTTP 503 with Retry-After: 5, timeout 300 ms',
    handler: (_q, r) => json(r, 503, {}, { 'retry-after': '5' }),
    options: { timeoutMs: 300 },
    expected: { read: { got: 'HTTP 503', attempts: 1 }, create: { got: 'HTTP 503', attempts: 1 } },
  },
  {
    name: 'expired token, 20 calls in flight',
    concurrency: 20,
    expected: {
      read: { got: 'HTTP 200', attempts: 40, tokenRequests: 2 },
      create: { got: 'HTTP 201', attempts: 40, tokenRequests: 2 },
    },
  },
];

const outcomes = new Map<string, Record<Kind, Outcome>>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

async function run(fault: Fault, kind: Kind): Promise<Outcome> {
  let server: LocalServer | undefined;
  let tokenRequests = 0;
  let expired = false;
  let baseUrl: string;
  const elsewhere = await startLocalServer((_req, res) => success(kind, res));
  if (fault.handler || fault.concurrency) {
    let apiIndex = 0;
    server = await startLocalServer((req, res) => {
      if (req.url?.endsWith('/token')) {
        tokenRequests++;
        if (fault.tokenHandler) return fault.tokenHandler(req, res, tokenRequests - 1, elsewhere.url);
        return json(res, 200, { accessToken: `tok-${tokenRequests}` });
      }
      if (fault.concurrency) {
        if (expired && req.headers.authorization === 'Bearer tok-1') return json(res, 401, {});
        return success(kind, res);
      }
      fault.handler!(req, res, apiIndex++, elsewhere.url);
    });
    baseUrl = server.url;
  } else {
    baseUrl = `http://127.0.0.1:${await freePort()}`; // nothing listens there
  }
  const options: RampClientOptions = {
    baseUrl,
    auth: { credentials: { clientId: CLIENT_ID } },
    retry: { baseDelayMs: 2 },
    ...fault.options,
  };
  const call = () =>
    kind === 'read'
      ? createBusinessClient(options).listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })
      : createV1Client(options).createPayout({ params: { path: { user_id: USER_ID } }, body: payout });
  try {
    let operationId: string | null = null;
    let got: string;
    let errorAttempts: number | undefined;
    if (fault.concurrency) {
      const client = kind === 'read' ? createBusinessClient(options) : createV1Client(options);
      const one = () =>
        kind === 'read'
          ? (client as ReturnType<typeof createBusinessClient>).listBankAccounts({
              params: { path: { clientId: CLIENT_ID } },
            })
          : (client as ReturnType<typeof createV1Client>).createPayout({
              params: { path: { user_id: USER_ID } },
              body: payout,
            });
      await one(); // a first call caches tok-1
      expired = true;
      server!.requests.length = 0;
      const results = await Promise.all(Array.from({ length: fault.concurrency }, one));
      const statuses = [...new Set(results.map((r) => r.response.status))];
      got = statuses.map((s) => `HTTP ${s}`).join(', ');
      operationId = kind === 'read' ? 'listBankAccounts' : 'createPayout';
    } else {
      try {
        const result = await call();
        got = `HTTP ${result.response.status}`;
        try {
          unwrap(result);
          operationId = kind === 'read' ? 'listBankAccounts' : 'createPayout';
        } catch (error) {
          operationId = (error as { operationId: string }).operationId;
        }
      } catch (error) {
        got = (error as Error).name;
        operationId = (error as { operationId?: string | null }).operationId ?? null;
        errorAttempts = (error as { attempts?: number }).attempts;
      }
    }
    const attempts = server ? server.requests.filter((r) => !r.url.endsWith('/token')).length : (errorAttempts ?? 0);
    return { got, operationId, attempts, tokenRequests, elsewhere: elsewhere.requests.length };
  } finally {
    await Promise.all([server?.close(), elsewhere.close()]);
  }
}

describe('fault matrix', () => {
  describe.each(faults.map((f) => [f.name, f] as const))('%s', (_name, fault) => {
    it.each(['read', 'create'] as const)('%s', async (kind) => {
      const outcome = await run(fault, kind);
      const row = outcomes.get(fault.name) ?? ({} as Record<Kind, Outcome>);
      row[kind] = outcome;
      outcomes.set(fault.name, row);
      expect(outcome).toMatchObject({
        operationId: kind === 'read' ? 'listBankAccounts' : 'createPayout',
        ...fault.expected[kind],
      });
    });
  });

  it('leaves no unhandled rejection behind', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });

  it('the first-call guide carries the table these tests observed (`npm run faults:readme` rewrites it)', () => {
    expect(outcomes.size, 'run the whole file').toBe(faults.length);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const cell = (o: Outcome, fault: Fault) => {
      const other = fault.name.includes('another origin')
        ? `; ${o.elsewhere === 0 ? 'nothing' : plural(o.elsewhere, 'request')} sent to the other origin`
        : '';
      if (o.got === 'TokenError') return `throws TokenError; the operation is not sent${other}`;
      const got = `${o.got.startsWith('HTTP') ? `result ${o.got}` : `throws ${o.got}`} (${o.operationId})`;
      if (fault.concurrency) {
        return `${got} for all ${fault.concurrency} calls: each refused once with 401 and repeated once (${plural(o.attempts, 'request')}); ${plural(o.tokenRequests, 'token request')} in all, the renewal shared`;
      }
      const sent =
        o.attempts === 0
          ? 'nothing sent'
          : o.attempts > 1
            ? `${plural(o.attempts, 'request')}`
            : '1 request, not repeated';
      return `${got}; ${sent}${other}`;
    };
    const table = [
      '| Fault | Read: GET listBankAccounts | Create: POST createPayout |',
      '| --- | --- | --- |',
      ...faults.map(
        (f) => `| ${f.name} | ${cell(outcomes.get(f.name)!.read, f)} | ${cell(outcomes.get(f.name)!.create, f)} |`,
      ),
    ].join('\n');
    const readmePath = join(repoRoot, 'docs', 'guides', 'first-call.md');
    const readme = readFileSync(readmePath, 'utf8');
    const start = '<!-- fault-matrix:start (generated by src/client/core/faults.test.ts) -->';
    const end = '<!-- fault-matrix:end -->';
    const block = `${start}\n${table}\n${end}`;
    const current = readme.includes(start) ? readme.slice(readme.indexOf(start), readme.indexOf(end) + end.length) : '';
    if (process.env.UPDATE_FAULT_TABLE === '1')
      writeFileSync(readmePath, current ? readme.replace(current, block) : readme);
    else
      expect(current, 'the fault table of docs/guides/first-call.md is stale: run `npm run faults:readme`').toBe(block);
  });
});
