// The validators the build compiles ahead (scripts/build/build-validators.ts): every schema the sandbox validates with
// has one, they judge as Ajv compiling the schema then would, and a module made from another document, or none,
// leaves the compiling to Ajv when a schema is first used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/sandbox/contract/document.js';
import { precompiledValidators } from '../../src/sandbox/contract/reference.js';
import {
  createSchemaValidator,
  loadPrecompiled,
  standaloneValidators,
  validatorName,
} from '../../src/sandbox/contract/schema-validator.js';
import { validatorSets } from './build-validators.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-validators-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the validators compiled at build time', () => {
  const sets = validatorSets();

  it('cover every schema of every route and event payload, made from the bundles as they are', () => {
    expect(sets.map((set) => set.name)).toEqual(['business', 'v1', 'sandbox', 'v1-events']);
    for (const { name, id, doc, schemas } of sets) {
      const module = loadPrecompiled(precompiledValidators(name), doc, id);
      const missing = schemas.filter((schema) => typeof module[validatorName(schema)] !== 'function');
      expect({ name, schemas: schemas.length, missing }).toEqual({ name, schemas: expect.any(Number), missing: [] });
      expect(schemas.length).toBeGreaterThan(0);
    }
  });

  it('judge as the same schemas compiled by Ajv when used', () => {
    for (const { name, id, doc, schemas } of sets) {
      const ahead = createSchemaValidator(doc, id, { precompiled: precompiledValidators(name) });
      const now = createSchemaValidator(doc, id);
      for (const schema of schemas) {
        const values = [
          null,
          {},
          [],
          '',
          'x',
          0,
          -1.5,
          true,
          { id: 1 },
          ...[(schema as { example?: unknown }).example ?? []],
          ...((schema as { examples?: unknown[] }).examples ?? []),
        ];
        for (const value of values) expect(ahead.validate(schema, value)).toEqual(now.validate(schema, value));
      }
    }
  });

  describe('a module', () => {
    const doc: OpenApiDocument = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      components: { schemas: { Name: { type: 'string' } } },
    };
    const schema = { $ref: '#/components/schemas/Name' };
    const id = 'urn:ramp-api:test';
    // A module whose validator passes everything: where it is used, 42 passes as a name.
    const file = join(work, 'test.cjs');
    writeFileSync(
      file,
      standaloneValidators(doc, id, [schema]).replace(
        /exports\.(v[0-9a-f]+) = validate\d+;/,
        'exports.$1 = () => true;',
      ),
    );

    it('is used when it was made from the document', () => {
      expect(readFileSync(file, 'utf8')).toContain('() => true');
      expect(createSchemaValidator(doc, id, { precompiled: file }).validate(schema, 42)).toEqual([]);
    });

    it('is not used for a document changed since, nor when it is missing: Ajv compiles the schema', () => {
      const changed: OpenApiDocument = { ...doc, components: { schemas: { Name: { type: 'string', minLength: 1 } } } };
      expect(createSchemaValidator(changed, id, { precompiled: file }).validate(schema, 42)).toEqual([
        '(root) must be string',
      ]);
      expect(createSchemaValidator(doc, id, { precompiled: join(work, 'none.cjs') }).validate(schema, 42)).toEqual([
        '(root) must be string',
      ]);
    });
  });
});
