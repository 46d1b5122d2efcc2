// `ramp-api usage --check NEW` in process: the target read as JSON or as the YAML bundle the package ships; an
// unreachable URL refused with its cause (connection refused, unknown host, no answer in time); and the line that
// says a usage file was built against other descriptions than the installed package's. The command itself, as a
// process, is cli.command.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freePort, startLocalServer } from '../../testing/local-server.js';
import { readBundleJson, repoRoot } from '../../testing/repo.js';
import type { OpenApiDocument } from '../lookup/index.js';
import { bundleDigest, familyBundle } from './bundles.js';
import { checkUsage, readTarget } from './check.js';
import { USAGE_FORMAT_VERSION, type UsageFile } from './usage-file.js';

const folder = mkdtempSync(join(tmpdir(), 'check-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The description a target was read as (one document). */
const docOf = async (target: string, options?: Parameters<typeof readTarget>[1]) => {
  const read = await readTarget(target, options);
  if (!('doc' in read)) throw new Error(`${target} was read as a folder`);
  return read.doc;
};

describe('--check reads the YAML bundle the package ships', () => {
  it('the package file dist/openapi/v1.yaml: the same description as v1.json', async () => {
    const yaml = join(repoRoot, 'src', 'client', 'dist', 'openapi', 'v1.yaml');
    expect(await docOf(yaml)).toEqual(readBundleJson('v1'));
  });

  it('a YAML description served at a URL', async () => {
    const body = stringify(readBundleJson('business'));
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
    });
    try {
      expect((await docOf(`${server.url}/openapi/business.yaml`)).info).toEqual(
        readBundleJson<OpenApiDocument>('business').info,
      );
    } finally {
      await server.close();
    }
  });

  it('YAML that is no description is refused as such', async () => {
    const file = join(folder, 'list.yaml');
    writeFileSync(file, '- a\n- b\n');
    await expect(readTarget(file)).rejects.toThrow(/list\.yaml is not an OpenAPI description/);
  });
});

describe('an unreachable URL is refused with its cause', () => {
  it('connection refused: a loopback port nothing listens on', async () => {
    const url = `http://127.0.0.1:${await freePort()}/openapi/v1.json`;
    await expect(readTarget(url)).rejects.toThrow(`${url} could not be fetched: connection refused.`);
  });

  it('unknown host: a name the resolver does not know', async () => {
    const lookup = async (host: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    };
    const url = 'http://nowhere.invalid/openapi/v1.json';
    await expect(readTarget(url, { lookup })).rejects.toThrow(
      `${url} could not be fetched: unknown host nowhere.invalid.`,
    );
  });

  it('timeout: a resolver that never answers', async () => {
    const lookup = () => new Promise<never>(() => {});
    const url = 'http://slow.invalid/openapi/v1.json';
    await expect(readTarget(url, { lookup, timeoutMs: 200 })).rejects.toThrow(
      `${url} could not be fetched: no answer within 0.2 s.`,
    );
  }, 5_000);

  it('timeout: a server that takes the request and never answers', async () => {
    const server = await startLocalServer(() => new Promise<void>(() => {}));
    try {
      const url = `${server.url}/openapi/v1.json`;
      await expect(readTarget(url, { timeoutMs: 200 })).rejects.toThrow(
        `${url} could not be fetched: no answer within 0.2 s.`,
      );
    } finally {
      await server.close();
    }
  });
});

describe('a URL is read within bounds', () => {
  it('a body sent a space at a time is cut at the whole bound', async () => {
    const server = await startLocalServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 20);
      res.once('close', () => clearInterval(drip));
    });
    try {
      const url = `${server.url}/openapi/v1.json`;
      await expect(readTarget(url, { timeoutMs: 300 })).rejects.toThrow(
        `${url} could not be fetched: no answer within 0.3 s.`,
      );
    } finally {
      await server.close();
    }
  });

  it('a redirect is followed, but never to a link-local address, which is never connected to', async () => {
    const bundle = readFileSync(join(repoRoot, 'src', 'client', 'dist', 'openapi', 'v1.json'));
    const server = await startLocalServer((req, res) => {
      if (req.url === '/next') res.writeHead(302, { location: '/v1.json' }).end();
      else if (req.url === '/metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(bundle);
    });
    try {
      await expect(readTarget(`${server.url}/next`)).resolves.toMatchObject({ source: `${server.url}/next` });
      const url = `${server.url}/metadata`;
      await expect(readTarget(url, { timeoutMs: 5_000 })).rejects.toThrow(
        `${url} could not be fetched: it leads to http://169.254.169.254/latest/meta-data, a link-local address, which is never fetched.`,
      );
      await expect(readTarget('http://[fe80::1]/v1.json')).rejects.toThrow(
        'a link-local address, which is never fetched.',
      );
    } finally {
      await server.close();
    }
  });
});

describe('the descriptions a usage file was built against', () => {
  const file = join(repoRoot, 'src', 'client', 'dist', 'openapi', 'v1.json');
  const installed = familyBundle('v1', readBundleJson<OpenApiDocument>('v1'), bundleDigest(readFileSync(file)));
  const usage = (digest: string): UsageFile => ({
    formatVersion: USAGE_FORMAT_VERSION,
    consumer: 'pay-app',
    descriptions: { v1: digest },
    operations: [],
    events: [],
    otherFields: [],
  });
  const check = (digest: string) =>
    checkUsage(usage(digest), new Map([['v1', installed]]), new Map([['v1', installed.doc]])).lines;

  it("other than the installed package's: one line naming the consumer, the family and both short digests", () => {
    const other = `sha256:${'a'.repeat(64)}`;
    expect(check(other)).toContain(
      `pay-app was built against other v1 descriptions (sha256:aaaaaaaaaaaa) than the installed ramp-api's (${installed.digest!.slice(0, 19)}): run \`npx ramp-api usage\` again.`,
    );
  });

  it("the installed package's: no such line", () => {
    expect(check(installed.digest!).join('\n')).not.toContain('was built against other');
  });
});
