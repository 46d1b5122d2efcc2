// `ramp-api usage --check` given a package tarball, in process: the descriptions read from a ramp-api tarball as
// `npm pack` makes it (a file or a URL, told apart from a description by its bytes, not its name; long entry
// names included), and each tarball it cannot read refused in one line naming the file and the problem: too large
// (as a file, as a body), unpacking to too much, an entry too large, truncated, not gzip or not tar, not ramp-api,
// or ramp-api without descriptions. The command itself, as a process, is cli.command.test.ts.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../testing/local-server.js';
import { rampApiManifest, writePackageTarball } from '../../testing/package-tarball.js';
import { readBundleJson } from '../../testing/repo.js';
import { readTarget, type Target } from './check.js';
import { TARGET_LIMITS } from './target-bytes.js';

const folder = mkdtempSync(join(tmpdir(), 'tarball-check-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const V1 = JSON.stringify(readBundleJson('v1'));
const BUSINESS = JSON.stringify(readBundleJson('business'));

/** A ramp-api tarball in the test's folder, its package files as given (a package.json and both bundles unless told). */
const tarball = (name: string, files: Record<string, string | Buffer> = {}, top?: string) =>
  writePackageTarball(
    join(folder, name),
    {
      'package.json': rampApiManifest(),
      'dist/openapi/v1.json': V1,
      'dist/openapi/business.json': BUSINESS,
      'dist/lib/index.js': 'export {};\n',
      ...files,
    },
    top,
  );

const families = (target: Target) => {
  if (!('byFamily' in target)) throw new Error(`${target.source} was read as one description`);
  return target.byFamily;
};

describe('a ramp-api package tarball: its dist/openapi/<family>.json, read in memory', () => {
  it('a tarball file, as npm pack makes it', async () => {
    const read = families(await readTarget(tarball('ramp-api-0.2.0.tgz')));
    expect([...read.keys()].sort()).toEqual(['business', 'v1']);
    expect(read.get('v1')).toEqual(readBundleJson('v1'));
  });

  it('told apart by its bytes: a tarball named .json, and a description named .tgz', async () => {
    const misnamed = join(folder, 'next.json');
    copyFileSync(tarball('for-misnamed.tgz'), misnamed);
    expect(families(await readTarget(misnamed)).has('v1')).toBe(true);
    const description = join(folder, 'v1.tgz');
    writeFileSync(description, V1);
    expect(await readTarget(description)).toEqual({ source: description, doc: readBundleJson('v1') });
  });

  it('entry names longer than a tar header holds (the ustar prefix, and a pax header)', async () => {
    for (const top of ['p'.repeat(120), 'q'.repeat(250)]) {
      const read = families(await readTarget(tarball(`long-${top.length}.tgz`, {}, top)));
      expect(read.get('business')).toEqual(readBundleJson('business'));
    }
  });

  it('a tarball URL, its body told apart by its bytes (no .tgz in the address)', async () => {
    const body = readFileSync(tarball('served.tgz'));
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    try {
      expect(families(await readTarget(`${server.url}/next`)).get('v1')).toEqual(readBundleJson('v1'));
    } finally {
      await server.close();
    }
  });
});

describe('a tarball that cannot be read is refused in one line naming the file and the problem', () => {
  const small = { ...TARGET_LIMITS, maxBytes: 64 * 1024, maxUnpackedBytes: 2 * 2 ** 20, maxEntryBytes: 512 * 1024 };

  it('larger than a --check target may be: a file, and a body (declared, and not declared)', async () => {
    const big = join(folder, 'big.tgz');
    writeFileSync(big, '');
    truncateSync(big, TARGET_LIMITS.maxBytes + 1);
    await expect(readTarget(big)).rejects.toThrow(
      `${big} is larger than ${TARGET_LIMITS.maxBytes / 2 ** 20} MiB, more than any ramp-api package or description.`,
    );
    const body = readFileSync(tarball('for-body.tgz', { 'dist/lib/noise.bin': randomBytes(small.maxBytes) }));
    expect(body.length).toBeGreaterThan(small.maxBytes);
    const server = await startLocalServer((req, res) => {
      if (req.url === '/chunked') {
        res.writeHead(200);
        res.write(body.subarray(0, 1000));
        res.end(body.subarray(1000));
      } else res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    try {
      for (const url of [`${server.url}/declared.tgz`, `${server.url}/chunked`])
        await expect(readTarget(url, { limits: small })).rejects.toThrow(
          `${url} is larger than 0.0625 MiB, more than any ramp-api package or description.`,
        );
    } finally {
      await server.close();
    }
  });

  it('unpacking to more than a package holds', async () => {
    const file = tarball('bomb.tgz', { 'dist/lib/zeros.bin': Buffer.alloc(3 * 2 ** 20) });
    await expect(readTarget(file, { limits: small })).rejects.toThrow(
      `${file} unpacks to more than 2 MiB, more than any ramp-api package.`,
    );
  });

  it('a description larger than any is', async () => {
    const file = tarball('big-entry.tgz', { 'dist/openapi/v1.json': `${V1}${' '.repeat(600 * 1024)}` });
    await expect(readTarget(file, { limits: small })).rejects.toThrow(
      `${file}: package/dist/openapi/v1.json is larger than 0.5 MiB, more than any description or package.json.`,
    );
  });

  it('truncated: the gzip data, and the archive inside complete gzip data', async () => {
    const whole = readFileSync(tarball('whole.tgz'));
    const cut = join(folder, 'cut.tgz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(readTarget(cut)).rejects.toThrow(`${cut} is truncated: its gzip data ends early.`);
    const tar = gunzipSync(whole);
    const entry = tar.indexOf('package/dist/openapi/v1.json');
    expect(entry).toBeGreaterThanOrEqual(0);
    writeFileSync(cut, gzipSync(tar.subarray(0, entry + 512 + 1000)));
    await expect(readTarget(cut)).rejects.toThrow(`${cut} is truncated: package/dist/openapi/v1.json ends early.`);
    writeFileSync(cut, gzipSync(tar.subarray(0, tar.length - 1024)));
    await expect(readTarget(cut)).rejects.toThrow(`${cut} is truncated: the archive ends before its end marker.`);
  });

  it('gzip data that is no tar archive', async () => {
    const file = join(folder, 'text.gz');
    writeFileSync(file, gzipSync('just some text, no tar header here\n'.repeat(40)));
    await expect(readTarget(file)).rejects.toThrow(
      `${file} is not a tar archive, or a damaged one (no tar header at byte 0).`,
    );
  });

  it('a package that is not ramp-api, and a tarball with no package.json', async () => {
    const other = tarball('left-pad-1.3.0.tgz', { 'package.json': JSON.stringify({ name: 'left-pad' }) });
    await expect(readTarget(other)).rejects.toThrow(
      `${other} is not a ramp-api package: its package/package.json names "left-pad".`,
    );
    const bare = join(folder, 'bare.tgz');
    writePackageTarball(bare, { 'dist/openapi/v1.json': V1 });
    await expect(readTarget(bare)).rejects.toThrow(
      `${bare} is not a ramp-api package: it has no package/package.json.`,
    );
  });

  it('a ramp-api package without descriptions', async () => {
    const file = join(folder, 'no-openapi.tgz');
    writePackageTarball(file, { 'package.json': rampApiManifest('0.2.0'), 'dist/lib/index.js': '' });
    await expect(readTarget(file)).rejects.toThrow(
      `${file} is ramp-api 0.2.0 without descriptions (no package/dist/openapi/<family>.json).`,
    );
  });

  it('a description in it that is none', async () => {
    const file = tarball('bad-v1.tgz', { 'dist/openapi/v1.json': '{"hello":"world"}' });
    await expect(readTarget(file)).rejects.toThrow(
      `${file} (package/dist/openapi/v1.json) is not an OpenAPI description (no "openapi" version and "info").`,
    );
  });
});
