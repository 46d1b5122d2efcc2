// Checks a bundled description against the official OpenAPI 3.1 JSON Schema (via @seriousme/openapi-schema-validator).
import { Validator } from '@seriousme/openapi-schema-validator';
import { formatAjvErrors } from '../../src/sandbox/contract/schema-validator.js';

/** Problems of `doc` as an OpenAPI 3.1 document; empty when it is valid. */
export async function openApi31Problems(doc: Record<string, unknown>): Promise<string[]> {
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1.'))
    return [`openapi is "${String(doc.openapi)}", not 3.1.x`];
  const validator = new Validator({ allErrors: true });
  // The validator keeps what it is given; hand it a copy so the caller's document stays untouched.
  const result = await validator.validate(structuredClone(doc));
  if (result.valid) return [];
  return typeof result.errors === 'string' ? [result.errors] : formatAjvErrors(result.errors);
}
