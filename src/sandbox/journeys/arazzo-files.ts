// The one reader of the journeys' Arazzo files (`*.arazzo.yaml`): each file of a folder parsed once and checked
// for what the model (./arazzo.ts) relies on, so every user (the runner, the portability check, the docs pages,
// whose build hands the console its JSON) works on the same documents and none parses a file again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// The package's own object, whose `parse` a test counts (scripts/journeys/parsed-once.test.ts).
import YAML from 'yaml';
import type { ArazzoDocument, ArazzoFile } from './arazzo.js';

/** The names of the Arazzo files of `dir`, sorted, without reading them. */
export function arazzoFileNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort();
}

/** Every Arazzo file of `dir`, in name order, each parsed once and checked. */
export function readArazzoFiles(dir: string): ArazzoFile[] {
  return arazzoFileNames(dir).map((name) => {
    const file = join(dir, name);
    return { file, name, doc: parseArazzo(name, readFileSync(file, 'utf8')) };
  });
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What a list of objects lacks: `where` names it; each item must have every key of `keys` as text. */
function listProblem(value: unknown, where: string, keys: string[]): string | undefined {
  if (!Array.isArray(value)) return `${where} is not a list`;
  for (const [i, item] of value.entries()) {
    if (!isNode(item)) return `${where}[${i}] is not an object`;
    const missing = keys.find((key) => !isText(item[key]));
    if (missing) return `${where}[${i}] has no ${missing}`;
  }
  return undefined;
}

/** What a step runs: an operation, by id or by path, or a workflow. */
const TARGETS = ['operationId', 'operationPath', 'workflowId'];

/** What the document lacks of what the model reads, or undefined. */
function documentProblem(doc: unknown): string | undefined {
  if (!isNode(doc)) return 'it is not an Arazzo document (an object at its top)';
  if (!isText(doc.arazzo) || !doc.arazzo.startsWith('1.')) return 'arazzo is not a version 1 of the specification';
  if (!isNode(doc.info) || !isText(doc.info.title)) return 'info has no title';
  const problem =
    listProblem(doc.sourceDescriptions, 'sourceDescriptions', ['name', 'url']) ??
    listProblem(doc.workflows, 'workflows', ['workflowId']);
  if (problem) return problem;
  for (const [i, workflow] of (doc.workflows as Node[]).entries()) {
    const steps = listProblem(workflow.steps, `workflows[${i}].steps`, ['stepId']);
    if (steps) return steps;
    const aimless = (workflow.steps as Node[]).findIndex((step) => !TARGETS.some((key) => isText(step[key])));
    if (aimless >= 0) return `workflows[${i}].steps[${aimless}] names no ${TARGETS.join(', ')}`;
  }
  if (doc.components !== undefined && !isNode(doc.components)) return 'components is not an object';
  return undefined;
}

/** `text`, the Arazzo file `name`, as the model's document; an error names the file and what is wrong. */
export function parseArazzo(name: string, text: string): ArazzoDocument {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (error) {
    throw new Error(`${name}: not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const problem = documentProblem(doc);
  if (problem) throw new Error(`${name}: ${problem}.`);
  return doc as ArazzoDocument;
}
