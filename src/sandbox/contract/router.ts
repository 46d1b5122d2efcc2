// The sandbox's routes: every operation of the bundles (routes.ts), checked with the validators the build
// compiled ahead (dist/validators/), or compiled by Ajv when first used where there are none.
import type { OpenApiDocument } from './document.js';
import { precompiledValidators, validatorId } from './reference.js';
import { buildRoutesWith, type Route } from './routes.js';
import { createSchemaValidator } from './schema-validator.js';

export { routeSchemas, type Route } from './routes.js';

export function buildRoutes(bundles: { family: string; doc: OpenApiDocument }[]): Route[] {
  return buildRoutesWith(bundles, (family, doc) =>
    createSchemaValidator(doc, validatorId(family), { precompiled: precompiledValidators(family) }),
  );
}
