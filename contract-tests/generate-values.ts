// Generates values that satisfy a JSON schema from the descriptions (types, formats, enums, bounds,
// lengths, required and optional properties, conditional requirements), from a seeded random source.
import type { OpenApiDocument } from '../scripts/openapi/apis.js';
import { type RequestInit, triggeredRequirements } from '../scripts/openapi/requests.js';
import { effectiveSchema, type JsonObject, type OperationEntry, resolveRef } from '../src/client/lookup/index.js';

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 áéíóúñ-_.';
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function generateValue(doc: OpenApiDocument, node: unknown, random: () => number, depth = 0): unknown {
  const schema = effectiveSchema(doc, node);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0)
    return pick(['text', 42, true, { note: 'any' }]);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return pick(schema.enum);
  if (Array.isArray(schema.oneOf)) return generateValue(doc, pick(schema.oneOf), random, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string'];
  const concrete = types.filter((t) => t !== 'null');
  if (types.includes('null') && (concrete.length === 0 || random() < 0.2)) return null;
  const type = pick(concrete);
  switch (type) {
    case 'string': {
      switch (schema.format) {
        case 'uuid':
          return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) =>
            (c === 'x' ? int(0, 15) : int(8, 11)).toString(16),
          );
        case 'date':
          return `${int(1950, 2030)}-${pad(int(1, 12))}-${pad(int(1, 28))}`;
        case 'date-time':
          return `${int(2000, 2030)}-${pad(int(1, 12))}-${pad(int(1, 28))}T${pad(int(0, 23))}:${pad(int(0, 59))}:${pad(int(0, 59))}Z`;
        case 'email':
          return `usuario${int(1, 99999)}@correo.example`;
        case 'uri':
          return `https://hooks${int(1, 99999)}.example/ramp`;
      }
      const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 24, 64);
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return Array.from({ length: int(min, Math.max(min, max)) }, () => pick([...ALPHABET])).join('');
    }
    case 'integer':
    case 'number': {
      const low =
        typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + 1
          : typeof schema.minimum === 'number'
            ? schema.minimum
            : 0;
      const high =
        typeof schema.exclusiveMaximum === 'number'
          ? schema.exclusiveMaximum - 1
          : typeof schema.maximum === 'number'
            ? schema.maximum
            : low + 10_000_000;
      const value = low + random() * (high - low);
      return type === 'integer' ? Math.floor(value) : Math.round(value * 100) / 100 || low + 0.01;
    }
    case 'boolean':
      return random() < 0.5;
    case 'array': {
      const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 3) : 3;
      return depth > 6
        ? []
        : Array.from({ length: int(0, max) }, () => generateValue(doc, schema.items ?? {}, random, depth + 1));
    }
    case 'object': {
      const out: JsonObject = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, child] of Object.entries((schema.properties ?? {}) as JsonObject)) {
        if (required.has(name) || (depth < 6 && random() < 0.5))
          out[name] = generateValue(doc, child, random, depth + 1);
      }
      // A conditional requirement (if/then) that the value triggers is satisfied too.
      for (const name of triggeredRequirements(schema, out)) {
        if (out[name] === undefined)
          out[name] = generateValue(doc, (schema.properties as JsonObject)[name], random, depth + 1);
      }
      return out;
    }
    default:
      return 'text';
  }
}

/** A request that conforms to the operation: every required parameter, some optional ones, and a body. */
export function generateRequest(doc: OpenApiDocument, entry: OperationEntry, random: () => number): RequestInit {
  const init: RequestInit = { params: { path: {}, query: {}, header: {} } };
  for (const parameter of entry.parameters) {
    if (!parameter.required && random() < 0.5) continue;
    let value = generateValue(doc, parameter.schema, random);
    // A path segment or header must not be empty text.
    if (typeof value === 'string' && value.trim() === '') value = `v${Math.floor(random() * 1e6)}`;
    if (parameter.in !== 'query' && typeof value === 'string') value = value.replace(/[^A-Za-z0-9_.-]/g, 'x');
    (init.params[parameter.in as 'path' | 'query' | 'header'] as Record<string, unknown>)[parameter.name] = value;
  }
  if (entry.operation.requestBody) {
    init.body = generateValue(
      doc,
      resolveRef(doc, entry.operation.requestBody).content?.['application/json']?.schema,
      random,
    );
  }
  return init;
}
