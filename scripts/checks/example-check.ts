// Finds every example in a bundled description (media types, parameters, schemas) and checks it against
// its schema with Ajv: the independent second opinion on what `redocly lint` already checks.

import { HTTP_METHODS, isJsonObject, jsonPointer, resolveRef } from '../../src/client/lookup/index.js';
import { createSchemaValidator } from '../../src/sandbox/contract/schema-validator.js';
import type { OpenApiDocument } from '../openapi/apis.js';

export interface ExampleProblem {
  /** Where the example sits, as a JSON pointer into the bundle. */
  location: string;
  message: string;
}

type Node = Record<string, unknown>;
const isNode = isJsonObject;
const pointer = jsonPointer;

const deref = (doc: OpenApiDocument, node: unknown): unknown =>
  node === undefined ? undefined : resolveRef<unknown>(doc, node);

const SCHEMA_CHILDREN = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];

export interface ExampleReport {
  /** Every example that was checked, by location. */
  checked: string[];
  problems: ExampleProblem[];
}

export function checkExamples(doc: OpenApiDocument): ExampleReport {
  const validator = createSchemaValidator(doc);
  const checked: string[] = [];
  const problems: ExampleProblem[] = [];
  const check = (schema: unknown, value: unknown, where: (string | number)[]) => {
    checked.push(pointer(where));
    for (const message of validator.validate(schema, value)) problems.push({ location: pointer(where), message });
  };

  /** Media type or parameter: `example`, or named `examples` (possibly `$ref`s to components.examples). */
  const checkHolder = (holder: unknown, where: (string | number)[]) => {
    if (!isNode(holder) || holder.schema === undefined) return;
    if ('example' in holder) check(holder.schema, holder.example, [...where, 'example']);
    if (isNode(holder.examples)) {
      for (const [name, example] of Object.entries(holder.examples)) {
        const resolved = deref(doc, example);
        if (isNode(resolved) && 'value' in resolved) check(holder.schema, resolved.value, [...where, 'examples', name]);
      }
    }
  };

  const checkContent = (content: unknown, where: (string | number)[]) => {
    if (!isNode(content)) return;
    for (const [mediaType, holder] of Object.entries(content)) checkHolder(holder, [...where, 'content', mediaType]);
  };

  const checkSchemaExamples = (schema: unknown, where: (string | number)[]) => {
    if (!isNode(schema)) return;
    if (Array.isArray(schema.examples)) {
      for (const [i, value] of schema.examples.entries()) check(schema, value, [...where, 'examples', i]);
    }
    for (const key of SCHEMA_CHILDREN) checkSchemaExamples(schema[key], [...where, key]);
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) for (const [i, s] of list.entries()) checkSchemaExamples(s, [...where, key, i]);
    }
    for (const key of SCHEMA_MAPS)
      if (isNode(schema[key]))
        for (const [name, s] of Object.entries(schema[key])) checkSchemaExamples(s, [...where, key, name]);
  };

  const checkOperation = (operation: unknown, where: (string | number)[]) => {
    if (!isNode(operation)) return;
    if (Array.isArray(operation.parameters)) {
      for (const [i, p] of operation.parameters.entries()) checkHolder(deref(doc, p), [...where, 'parameters', i]);
    }
    if (operation.requestBody)
      checkContent((deref(doc, operation.requestBody) as Node | undefined)?.content, [...where, 'requestBody']);
    if (isNode(operation.responses)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        checkContent((deref(doc, response) as Node | undefined)?.content, [...where, 'responses', status]);
      }
    }
  };

  for (const section of ['paths', 'webhooks'] as const) {
    for (const [path, item] of Object.entries(doc[section] ?? {})) {
      if (!isNode(item)) continue;
      if (Array.isArray(item.parameters)) {
        for (const [i, p] of item.parameters.entries()) checkHolder(deref(doc, p), [section, path, 'parameters', i]);
      }
      for (const method of HTTP_METHODS) {
        checkOperation(item[method], [section, path, method]);
      }
    }
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    checkSchemaExamples(schema, ['components', 'schemas', name]);
  return { checked, problems };
}
