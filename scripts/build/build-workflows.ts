// The journeys as the package ramp-api ships them (src/client/dist/workflows/): each Arazzo file of
// openapi/workflows/ with its OpenAPI source descriptions pointing at the bundles beside it
// (`../openapi/<family>.yaml`) instead of the descriptions' sources, so any Arazzo runner runs them from an
// installed package; everything else as written. It parses each file itself rather than through the journeys' reader
// (src/sandbox/journeys/arazzo-files.ts): it edits the text in place, so it needs YAML's own document, with where
// each value stands in the text, not the model's data.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { arazzoFileNames } from '../../src/sandbox/journeys/arazzo-files.js';
import { shippedWorkflowsDir } from '../../src/sandbox/journeys/command.js';
import { workflowsDir } from '../journeys/workflows.js';
import { allApiFamilies, clientBundleDir, repoRoot } from '../openapi/apis.js';

/** The bundle that replaces each description's source, by the source's path as a workflow names it. */
function bundleBySource(): Map<string, string> {
  return new Map(
    allApiFamilies().map((api) => [
      resolve(repoRoot, api.root),
      relative(shippedWorkflowsDir(), join(clientBundleDir, basename(api.bundleYaml))),
    ]),
  );
}

/**
 * `text` (an Arazzo file of openapi/workflows/) with its OpenAPI sources' addresses replaced by the bundles', in
 * place: every other byte stays as written.
 */
export function shippedWorkflow(text: string, bundles = bundleBySource()): string {
  const sources = parseDocument(text).get('sourceDescriptions');
  if (!isSeq(sources)) throw new Error('An Arazzo file without sourceDescriptions.');
  const edits = sources.items.flatMap((source) => {
    const url = isMap(source) && source.get('type') === 'openapi' ? source.get('url', true) : undefined;
    if (!isScalar(url) || !url.range) return [];
    const bundle = bundles.get(resolve(workflowsDir, String(url.value)));
    if (!bundle) throw new Error(`No bundle is made of the description ${String(url.value)}.`);
    return [{ from: url.range[0], to: url.range[1], bundle }];
  });
  let out = text;
  for (const { from, to, bundle } of edits.sort((a, b) => b.from - a.from))
    out = `${out.slice(0, from)}${bundle}${out.slice(to)}`;
  return out;
}

/** Writes every journey file as the package ships it. */
export function writeShippedWorkflows(): void {
  const shipped = shippedWorkflowsDir();
  mkdirSync(shipped, { recursive: true });
  const bundles = bundleBySource();
  for (const name of arazzoFileNames(workflowsDir))
    writeFileSync(join(shipped, name), shippedWorkflow(readFileSync(join(workflowsDir, name), 'utf8'), bundles));
}
