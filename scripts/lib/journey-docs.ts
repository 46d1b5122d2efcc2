// The journeys: the Arazzo workflows in openapi/workflows/*.arazzo.yaml, read with the API family each source
// description names (its url resolves to a family's root in redocly.yaml) and each family's operations, and every
// workflow's calls in order. The documentation site gives each workflow a page and each operation the journeys
// that call it; the console runs them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import {
  type ArazzoDocument,
  type ArazzoWorkflow,
  type PlannedCall,
  plannedCalls,
  type Sources,
} from '../../src/console/journey/workflow.js';
import { type ApiFamily, type OpenApiDocument, repoRoot } from './apis.js';
import { listOperations } from './openapi-lookup.js';

export const workflowsDir = join(repoRoot, 'openapi', 'workflows');

export interface Journey {
  /** The page's name under site/journeys/ (the workflowId, unique across the files). */
  slug: string;
  /** The Arazzo file, relative to the repository. */
  file: string;
  document: ArazzoDocument;
  workflow: ArazzoWorkflow;
  sources: Sources;
  calls: PlannedCall[];
}

/** Which family each source description of `document` (read from `file`) names. */
function sourcesOf(file: string, document: ArazzoDocument, apis: { api: ApiFamily; doc: OpenApiDocument }[]): Sources {
  const families: Record<string, string> = {};
  for (const source of document.sourceDescriptions ?? []) {
    const target = relative(repoRoot, resolve(join(file, '..'), source.url));
    const api = apis.find((a) => a.api.root === target);
    if (!api)
      throw new Error(
        `${relative(repoRoot, file)}: source description ${source.name} (${source.url}) is none of redocly.yaml's APIs.`,
      );
    families[source.name] = api.api.name;
  }
  const operations = Object.fromEntries(
    apis.map(({ api, doc }) => [api.name, listOperations(doc).map((e) => e.operationId)]),
  );
  return { families, operations };
}

/** Every workflow of `dir` (default openapi/workflows/), in file order, then the order each file gives. */
export function readJourneys(apis: { api: ApiFamily; doc: OpenApiDocument }[], dir = workflowsDir): Journey[] {
  if (!existsSync(dir)) return [];
  const journeys: Journey[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.arazzo.yaml'))
    .sort()) {
    const file = join(dir, name);
    const document = parse(readFileSync(file, 'utf8')) as ArazzoDocument;
    const sources = sourcesOf(file, document, apis);
    for (const workflow of document.workflows ?? []) {
      const taken = journeys.find((j) => j.slug === workflow.workflowId);
      if (taken)
        throw new Error(`Workflow ${workflow.workflowId} is in both ${taken.file} and ${relative(repoRoot, file)}.`);
      let calls: PlannedCall[];
      try {
        calls = plannedCalls(document, workflow, sources);
      } catch (error) {
        throw new Error(`${relative(repoRoot, file)}, workflow ${workflow.workflowId}: ${(error as Error).message}`);
      }
      journeys.push({ slug: workflow.workflowId, file: relative(repoRoot, file), document, workflow, sources, calls });
    }
  }
  return journeys;
}

/** A journey's title: the workflow's summary without its closing period, else its workflowId. */
export const journeyTitle = (journey: Journey) =>
  (journey.workflow.summary ?? journey.workflow.workflowId).replace(/\.$/, '');

/** The journeys that call `operationId` of `family`, each with the steps that call it. */
export function journeysUsing(journeys: Journey[], family: string, operationId: string) {
  return journeys
    .map((journey) => ({
      journey,
      steps: journey.calls
        .filter((c) => c.family === family && c.operationId === operationId)
        .map((c) => c.path.join(' / ')),
    }))
    .filter((use) => use.steps.length > 0);
}
