// The journeys' one reader: a folder's Arazzo files in name order, each parsed once, and a file the model cannot
// read refused with its name and what is wrong.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { arazzoFileNames, parseArazzo, readArazzoFiles } from './arazzo-files.js';

const parse = vi.spyOn(YAML, 'parse');
afterAll(() => parse.mockRestore());
const dir = mkdtempSync(join(tmpdir(), 'arazzo-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const document = (workflowId: string) => `arazzo: 1.0.1
info:
  title: ${workflowId}
  version: 1.0.0
sourceDescriptions:
  - name: v1
    url: ../v1/openapi.yaml
    type: openapi
workflows:
  - workflowId: ${workflowId}
    steps:
      - stepId: banks
        operationId: $sourceDescriptions.v1.listBanks
`;

describe('readArazzoFiles', () => {
  it('reads the *.arazzo.yaml files of a folder in name order, each parsed once', () => {
    writeFileSync(join(dir, 'b.arazzo.yaml'), document('second'));
    writeFileSync(join(dir, 'a.arazzo.yaml'), document('first'));
    writeFileSync(join(dir, 'redocly.yaml'), 'extends: []\n');
    parse.mockClear();
    const files = readArazzoFiles(dir);
    expect(files.map((f) => [f.name, f.file, f.doc.workflows[0]!.workflowId])).toEqual([
      ['a.arazzo.yaml', join(dir, 'a.arazzo.yaml'), 'first'],
      ['b.arazzo.yaml', join(dir, 'b.arazzo.yaml'), 'second'],
    ]);
    expect(parse).toHaveBeenCalledTimes(2);
    expect(arazzoFileNames(dir)).toEqual(['a.arazzo.yaml', 'b.arazzo.yaml']);
  });
});

describe('parseArazzo refuses, naming the file and what is wrong,', () => {
  it.each([
    ['text that is not YAML', 'a: [1', /^x\.arazzo\.yaml: not YAML \(/],
    ['a list at the top', '- 1\n', 'x.arazzo.yaml: it is not an Arazzo document (an object at its top).'],
    ['another version', document('w').replace('1.0.1', '2.0.0'), /arazzo is not a version 1/],
    ['no title', document('w').replace('title: w', 'summary: w'), 'x.arazzo.yaml: info has no title.'],
    [
      'a source without url',
      document('w').replace('    url: ../v1/openapi.yaml\n', ''),
      /sourceDescriptions\[0\] has no url/,
    ],
    [
      'a workflow without an id',
      document('w').replace('workflowId: w', 'summary: w'),
      /workflows\[0\] has no workflowId/,
    ],
    ['a workflow without steps', document('w').replace(/ {4}steps:[\s\S]*/, ''), /workflows\[0\]\.steps is not a list/],
    ['a step without an id', document('w').replace('stepId: banks', 'description: banks'), /steps\[0\] has no stepId/],
    [
      'a step that runs nothing',
      document('w').replace('operationId:', 'description:'),
      'x.arazzo.yaml: workflows[0].steps[0] names no operationId, operationPath, workflowId.',
    ],
  ])('%s', (_, text, message) => {
    expect(() => parseArazzo('x.arazzo.yaml', text)).toThrow(message);
  });
});
