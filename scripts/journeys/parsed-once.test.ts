// Each command that reads the journeys parses each Arazzo file of openapi/workflows/ once: `npm run docs` (the
// journeys' pages and the references' links to them, readDocJourneys), `npm run journeys:table` (coverage),
// `npm run journeys` (src/sandbox/journeys/command.ts, up to where it refuses an unknown workflow, before any run)
// and the portability check. Every parse goes through the one reader, counted here at YAML's parse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { arazzoFileNames, readArazzoFiles } from '../../src/sandbox/journeys/arazzo-files.js';
import { journeysCommand } from '../../src/sandbox/journeys/command.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { coverage } from './coverage.js';
import { readDocJourneys } from './journey-docs.js';
import { checkPortability } from './portability.js';
import { workflowsDir } from './workflows.js';

const parse = vi.spyOn(YAML, 'parse');
afterAll(() => parse.mockRestore());

const texts = new Map(
  arazzoFileNames(workflowsDir).map((name) => [readFileSync(join(workflowsDir, name), 'utf8'), name]),
);

/** What `work` gives, and how many times it parses each Arazzo file, by file name. */
async function parsesOf<T>(work: () => T): Promise<{ result: Awaited<T>; parses: Record<string, number> }> {
  parse.mockClear();
  const result = await work();
  const parses = Object.fromEntries([...texts.values()].map((name) => [name, 0]));
  for (const [text] of parse.mock.calls) {
    const name = texts.get(String(text));
    if (name) parses[name]! += 1;
  }
  return { result, parses };
}

const once = () => Object.fromEntries([...texts.values()].map((name) => [name, 1]));

describe('each Arazzo file is parsed once', () => {
  it('by the docs pages', async () => {
    const apis = allApiFamilies().map((api) => ({ api, doc: readBundle(api) }));
    expect((await parsesOf(() => readDocJourneys(apis))).parses).toEqual(once());
  });

  it('by the coverage table', async () => {
    expect((await parsesOf(() => coverage())).parses).toEqual(once());
  });

  it('by the journeys command', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const run = await parsesOf(() => journeysCommand(['--workflow', 'noSuchJourney'], { workflowsDir }));
      expect(run).toEqual({ result: 2, parses: once() });
      expect(error).toHaveBeenCalledWith(expect.stringContaining('noSuchJourney'));
    } finally {
      error.mockRestore();
    }
  });

  it('by the portability check', async () => {
    expect((await parsesOf(() => checkPortability(readArazzoFiles(workflowsDir)))).parses).toEqual(once());
  });
});
