// The journeys as ramp-api ships them (dist/workflows/, made by the tests' global setup as by `npm run build`):
// the repository's files byte for byte but for their OpenAPI sources, which name bundles the package holds; every
// file portable to any Arazzo runner, as the repository's are.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arazzoFileNames, readArazzoFiles } from '../../src/sandbox/journeys/arazzo-files.js';
import { shippedWorkflowsDir } from '../../src/sandbox/journeys/command.js';
import { checkPortability, portabilityReport } from '../journeys/portability.js';
import { workflowsDir } from '../journeys/workflows.js';
import { clientBundleDir } from '../openapi/apis.js';
import { shippedWorkflow } from './build-workflows.js';

const shippedDir = shippedWorkflowsDir();
const names = arazzoFileNames(workflowsDir);
const shipped = (name: string) => readFileSync(join(shippedDir, name), 'utf8');

describe('the shipped journeys', () => {
  it('are every journey file of the repository, as the build makes them now', () => {
    expect(readdirSync(shippedDir).sort()).toEqual([...names].sort());
    for (const name of names)
      expect(shipped(name), name).toBe(shippedWorkflow(readFileSync(join(workflowsDir, name), 'utf8')));
  });

  it("name the package's bundles as their OpenAPI sources, and change nothing else", () => {
    const sources = readArazzoFiles(workflowsDir);
    for (const { name, doc: made } of readArazzoFiles(shippedDir)) {
      const source = sources.find((f) => f.name === name)!.doc;
      for (const [i, s] of made.sourceDescriptions.entries()) {
        const target = resolve(shippedDir, s.url);
        expect(existsSync(target), `${name}: ${s.url}`).toBe(true);
        if (s.type === 'openapi') expect(target.startsWith(`${clientBundleDir}/`), `${name}: ${s.url}`).toBe(true);
        source.sourceDescriptions[i]!.url = s.url;
      }
      expect(made, name).toEqual(source);
    }
  });

  it('pass the portability check', () => {
    expect(portabilityReport(checkPortability(readArazzoFiles(shippedDir)))).toBe('');
  });
});
