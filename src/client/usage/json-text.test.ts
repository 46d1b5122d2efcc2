// A file that is not JSON is named with where its JSON stops, never with its first characters: a usage file that
// is a link to /etc/passwd must not print `root:x:0:0`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeUsageProject } from '../../testing/usage-project.js';
import { UsageError, UsageFormatError } from './errors.js';
import { extractUsage } from './extract.js';
import { parseJson } from './json-text.js';
import { readUsageFile } from './usage-file.js';

const dir = mkdtempSync(join(tmpdir(), 'json-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASSWD = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';

/** The message of the error `parseJson` refuses `text` with. */
const refusal = (text: string) => {
  try {
    parseJson(text, (problem) => new Error(`f.json is ${problem}`));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('parseJson', () => {
  it('says where the JSON stops, by line and column, when the parser says', () => {
    expect(refusal('{\n  "a": 1,\n}')).toBe('f.json is not JSON (at line 3, column 1)');
  });

  it('quotes none of the text', () => {
    expect(refusal(PASSWD)).toBe('f.json is not JSON (at line 1, column 1)');
    expect(refusal('{"secret": tru}')).not.toContain('secret');
    expect(refusal('{"secret": ')).toBe('f.json is not JSON (it ends too early)');
  });

  it('returns the value of JSON', () => {
    expect(parseJson('{"a": [1]}', () => new Error('no'))).toEqual({ a: [1] });
  });
});

describe('the usage files that are not JSON', () => {
  it('a usage file with the bytes of /etc/passwd: named, with no byte of it', async () => {
    const file = join(dir, 'passwd.json');
    writeFileSync(file, PASSWD);
    const refused = readUsageFile(file);
    await expect(refused).rejects.toBeInstanceOf(UsageFormatError);
    await expect(refused).rejects.toThrow(`${file} is not a JSON usage file: not JSON (at line 1, column 1).`);
  });

  it("a project whose package.json is not JSON: one UsageError naming it, not the parser's quote", async () => {
    const project = makeUsageProject('broken-manifest', {});
    try {
      writeFileSync(join(project, 'package.json'), PASSWD);
      const refused = extractUsage({ projectDir: project });
      await expect(refused).rejects.toBeInstanceOf(UsageError);
      await expect(refused).rejects.toThrow(
        `${join(project, 'package.json')} is not JSON (at line 1, column 1): pass --name NAME, or mend it.`,
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
