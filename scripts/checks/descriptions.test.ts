// The bundled descriptions are valid OpenAPI 3.1, their examples validate, and the x-inferred table is current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiFamilies, type OpenApiDocument, readBundle, repoRoot } from '../openapi/apis.js';
import { collectInferred, renderInferredTable } from '../openapi/inferred.js';
import { checkExamples } from './example-check.js';
import { openApi31Problems } from './openapi-validity.js';

const apis = apiFamilies();
const fixture = JSON.parse(
  readFileSync(join(repoRoot, 'scripts', 'checks', 'fixtures', 'wrong-example.json'), 'utf8'),
) as OpenApiDocument;

describe.each(apis)('the $name bundle', (api) => {
  const doc = readBundle(api);

  it('is a valid OpenAPI 3.1.0 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(await openApi31Problems(doc)).toEqual([]);
  });

  it('has every example valid against its schema (Ajv 2020-12)', () => {
    const report = checkExamples(doc);
    expect(report.problems).toEqual([]);
    // Every response and request body carries examples, so the walk must have found many.
    expect(report.checked.length).toBeGreaterThan(20);
  });

  it('explains every x-inferred item', () => {
    const items = collectInferred(api.name, doc);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.what.length, item.pointer).toBeGreaterThan(0);
      expect(item.why.length, item.pointer).toBeGreaterThan(20);
    }
  });
});

describe('the checks themselves', () => {
  it('catch deliberately wrong examples in a fixture, naming where they are', () => {
    const { problems, checked } = checkExamples(fixture);
    expect(checked).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          location: '#/paths/~1wallets~1{walletId}/get/parameters/0/example',
          message: expect.stringContaining('uuid'),
        }),
        expect.objectContaining({
          location: '#/paths/~1wallets~1{walletId}/get/responses/200/content/application~1json/examples/wrongType',
          message: '/balance must be string',
        }),
        expect.objectContaining({
          location: '#/components/schemas/RegisterDate/examples/0',
          message: expect.stringContaining('pattern'),
        }),
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it('reject a document that is not OpenAPI 3.1', async () => {
    const { info: _info, ...withoutInfo } = fixture;
    expect(await openApi31Problems(withoutInfo)).toContain("(root) must have required property 'info'");
    expect(await openApi31Problems({ ...fixture, openapi: '3.0.3' })).toEqual(['openapi is "3.0.3", not 3.1.x']);
  });
});

describe('openapi/INFERRED.md', () => {
  it('matches what the descriptions mark x-inferred (run `npm run inferred` after changing them)', () => {
    const expected = renderInferredTable(apis.flatMap((api) => collectInferred(api.name, readBundle(api))));
    expect(readFileSync(join(repoRoot, 'openapi', 'INFERRED.md'), 'utf8')).toBe(expected);
  });
});
