// The sandbox's validators, compiled at build time (`npm run build`) into the package's dist/validators/: one
// CommonJS module per set of schemas (each family's routes, and the v1 events), written by Ajv's standalone code
// generation. A start then loads no Ajv and compiles nothing, and the first request to an operation waits for
// no compiling. A sandbox without them (run from a checkout not yet built) or
// with stale ones (see `standaloneValidators`) compiles each schema when first used, as before.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { readBundleFile } from '../../src/sandbox/contract/document.js';
import { precompiledValidators, validatorId } from '../../src/sandbox/contract/reference.js';
import { routeSchemas } from '../../src/sandbox/contract/router.js';
import { standaloneValidators } from '../../src/sandbox/contract/schema-validator.js';
import { EVENTS_VALIDATORS, webhookSchemas } from '../../src/sandbox/events/store.js';
import { SANDBOX_FAMILIES } from '../../src/sandbox/server.js';

/** Every set the sandbox validates with: its module's name, the document and id it is compiled for, its schemas. */
export function validatorSets() {
  const v1 = readBundleFile('v1');
  return [
    ...SANDBOX_FAMILIES.map((family) => {
      const doc = family === 'v1' ? v1 : readBundleFile(family);
      return { name: family as string, id: validatorId(family), doc, schemas: routeSchemas(doc) };
    }),
    { name: EVENTS_VALIDATORS, id: validatorId(EVENTS_VALIDATORS), doc: v1, schemas: [...webhookSchemas(v1).values()] },
  ];
}

/** Writes each set's module (under a temporary name, then renamed: a sandbox starting meanwhile never reads half). */
export function writeValidators(): void {
  for (const { name, id, doc, schemas } of validatorSets()) {
    const file = precompiledValidators(name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.${process.pid}.tmp`, standaloneValidators(doc, id, schemas));
    renameSync(`${file}.${process.pid}.tmp`, file);
  }
}
