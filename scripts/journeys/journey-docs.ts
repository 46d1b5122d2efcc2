// The journeys as the documentation site shows them: every Arazzo file of openapi/workflows/ in one library (each
// source description resolved to an API family of redocly.yaml or to another Arazzo file), and for each journey
// (a workflow that takes a tenant's inputs: src/sandbox/journeys/runnable.ts decides which) its calls in order, sub-workflows
// expanded. The site gives each journey a page and each operation the journeys that call it; the console runs them.
import { basename, join, relative, resolve } from 'node:path';
import { listOperations } from '../../src/client/lookup/index.js';
import {
  type ArazzoFile,
  type InputsSchema,
  inputsOf,
  type Library,
  type PlannedCall,
  plannedCalls,
  type WorkflowRef,
} from '../../src/sandbox/journeys/arazzo.js';
import { readArazzoFiles } from '../../src/sandbox/journeys/arazzo-files.js';
import { journeys as runnableJourneys } from '../../src/sandbox/journeys/runnable.js';
import { type ApiFamily, type OpenApiDocument, repoRoot } from '../openapi/apis.js';
import { workflowsDir } from './workflows.js';

export interface DocJourney extends WorkflowRef {
  /** The page's name under site/journeys/ (the workflowId, unique across the files). */
  slug: string;
  /** The Arazzo file, relative to the repository. */
  path: string;
  library: Library;
  inputs: InputsSchema;
  calls: PlannedCall[];
}

/** The Arazzo files as one library, their sources resolved; `apis` give the families and their operations. */
function libraryOf(files: ArazzoFile[], apis: { api: ApiFamily; doc: OpenApiDocument }[]): Library {
  const library: Library['files'] = {};
  for (const { file, name, doc: document } of files) {
    const families: Record<string, string> = {};
    const workflows: Record<string, string> = {};
    for (const source of document.sourceDescriptions) {
      const target = resolve(join(file, '..'), source.url);
      if (source.type === 'arazzo') {
        workflows[source.name] = basename(target);
        continue;
      }
      const api = apis.find((a) => resolve(repoRoot, a.api.root) === target);
      if (!api)
        throw new Error(`${name}: source description ${source.name} (${source.url}) is none of redocly.yaml's APIs.`);
      families[source.name] = api.api.name;
    }
    library[name] = { document, families, workflows };
  }
  const operations = Object.fromEntries(
    apis.map(({ api, doc }) => [api.name, listOperations(doc).map((e) => e.operationId)]),
  );
  return { files: library, operations };
}

/** The journeys of the Arazzo files of `dir` (each read once), in file order, then the order each file gives. */
export function readDocJourneys(apis: { api: ApiFamily; doc: OpenApiDocument }[], dir = workflowsDir): DocJourney[] {
  const files = readArazzoFiles(dir);
  const library = libraryOf(files, apis);
  const found: DocJourney[] = [];
  for (const { file: arazzoFile, workflow } of runnableJourneys(files)) {
    const file = arazzoFile.name;
    const taken = found.find((j) => j.slug === workflow.workflowId);
    if (taken) throw new Error(`Workflow ${workflow.workflowId} is in both ${taken.file} and ${file}.`);
    let calls: PlannedCall[];
    try {
      calls = plannedCalls(library, { file, workflow });
    } catch (error) {
      throw new Error(`${file}, workflow ${workflow.workflowId}: ${(error as Error).message}`);
    }
    found.push({
      slug: workflow.workflowId,
      file,
      workflow,
      path: relative(repoRoot, arazzoFile.file),
      library,
      inputs: inputsOf(library, file, workflow),
      calls,
    });
  }
  return found;
}

/** A journey's title: the workflow's summary without its closing period, else its workflowId. */
export const journeyTitle = (journey: WorkflowRef) =>
  (journey.workflow.summary ?? journey.workflow.workflowId).replace(/\.$/, '');

/** The journeys that call `operationId` of `family`, each with the steps that call it. */
export function journeysUsing(journeys: DocJourney[], family: string, operationId: string) {
  return journeys
    .map((journey) => ({
      journey,
      steps: journey.calls
        .filter((c) => c.family === family && c.operationId === operationId)
        .map((c) => c.path.join(' / ')),
    }))
    .filter((use) => use.steps.length > 0);
}
