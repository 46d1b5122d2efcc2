// Test support: a package tarball as `npm pack` makes it (a gzipped tar whose entries sit under one top folder,
// `package/` unless told), written by the `tar` package from files laid out in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create } from 'tar';

/** Writes `file`, a tarball holding `files` (paths inside the package, `dist/openapi/v1.json`) under `top/`. */
export function writePackageTarball(file: string, files: Record<string, string | Buffer>, top = 'package'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tarball-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, top, path)), { recursive: true });
      writeFileSync(join(dir, top, path), content);
    }
    create({ gzip: true, portable: true, sync: true, cwd: dir, file }, [top]);
    return file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A ramp-api package.json of `version`. */
export const rampApiManifest = (version = '0.2.0') => JSON.stringify({ name: 'ramp-api', version });
