// The calls a consuming project makes: `client.createPayout(init)` (a method of the operation table) and
// `client.POST('/api/v1/...', init)` (a path-based call on a ramp-api client, ../core/calls.ts), with the
// parameters and request fields each sets (visit-body.ts); the token call of each client made with credentials
// (visit-token.ts); and the events its webhook handlers handle.
import type { ts as TS } from 'ts-morph';
import { type CallFound, type Context, newCall, placeOfDeclaration, siteOf } from './context.js';
import { followValue } from './follow-value.js';
import { recordSent, requestSchemaOf } from './visit-body.js';
import { visitClientCreation } from './visit-token.js';

const PATH_METHODS = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE)$/;
/** Where the path-based calls are declared: the package's own call types, from its sources or its build. */
const PATH_CALLS = /[/\\]core[/\\]calls\.(d\.)?ts$/;

/** The operation a call names, and its init argument; undefined for any other call. */
function operationOf(ctx: Context, call: TS.CallExpression) {
  const { ts, checker } = ctx;
  if (!ts.isPropertyAccessExpression(call.expression)) return undefined;
  const method = call.expression.name;
  const declaration = checker.getSymbolAtLocation(method)?.declarations?.[0];
  if (!declaration) return undefined;
  const place = placeOfDeclaration(ctx, declaration);
  if (place?.kind === 'operation')
    return { family: place.family, operationId: place.operationId, init: call.arguments[0] };
  const [path, init] = call.arguments;
  if (!PATH_METHODS.test(method.text) || !PATH_CALLS.test(declaration.getSourceFile().fileName)) return undefined;
  if (!path || !ts.isStringLiteralLike(path)) return undefined;
  // A ramp-api client: its operation methods say which family it calls.
  for (const property of checker.getTypeAtLocation(call.expression.expression).getProperties()) {
    const found = property.declarations?.[0] && placeOfDeclaration(ctx, property.declarations[0]);
    if (found?.kind !== 'operation') continue;
    const bundle = ctx.bundle(found.family, property.declarations![0]!.getSourceFile().fileName);
    const entry = bundle?.operations.find((e) => e.method === method.text.toLowerCase() && e.path === path.text);
    return entry ? { family: found.family, operationId: entry.operationId, init } : undefined;
  }
  return undefined;
}

const propertyName = (ctx: Context, property: TS.ObjectLiteralElementLike) => {
  const { name } = property;
  return name && (ctx.ts.isIdentifier(name) || ctx.ts.isStringLiteralLike(name)) ? name.text : undefined;
};

const ignore = () => {};

/** The parameters an init's `params` sets, as `<in> <name>` (`path user_id`). */
function readParams(ctx: Context, params: TS.Expression, found: CallFound): void {
  followValue(ctx, params, {
    property(where, group) {
      if (!group) return;
      followValue(ctx, group, {
        property: (name) => found.parameters.push(`${where} ${name}`),
        element: ignore,
        unknown: ignore,
      });
    },
    element: ignore,
    unknown: ignore,
  });
}

/** The parameters and request fields an init argument sets, followed to the literals it is built from. */
function readInit(ctx: Context, init: TS.Expression | undefined, found: CallFound): void {
  if (!init) return;
  const schema = requestSchemaOf(ctx, found.family, found.operationId);
  followValue(ctx, init, {
    property(name, value) {
      if (name === 'body' && value) recordSent(ctx, value, schema, found, { noun: 'the body', verb: 'is' });
      if (name === 'params' && value) readParams(ctx, value, found);
    },
    element: ignore,
    // Options the analyzer cannot follow may hold any body, if the operation takes one.
    unknown: (reason) => {
      if (schema) found.dynamic.push({ reason: `the body is built at run time (${reason})` });
    },
  });
}

/** Records the call if it is a call of an operation. */
export function visitCall(ctx: Context, call: TS.CallExpression): void {
  const operation = operationOf(ctx, call);
  if (!operation) {
    visitClientCreation(ctx, call);
    return;
  }
  const found = newCall(ctx, operation.family, operation.operationId, call);
  readInit(ctx, operation.init, found);
  ctx.calls.push(found);
}

/** Records the events of an object literal typed as ramp-api's `WebhookHandlers`. */
export function visitHandlers(ctx: Context, literal: TS.ObjectLiteralExpression): void {
  const { ts, checker } = ctx;
  const alias = checker.getContextualType(literal)?.aliasSymbol;
  const declaration = alias?.declarations?.[0];
  if (
    alias?.name !== 'WebhookHandlers' ||
    !declaration ||
    !/[/\\]webhooks[/\\]receiver\.(d\.)?ts$/.test(declaration.getSourceFile().fileName)
  )
    return;
  // ramp-api's receiver takes the events of the v1 family, whose description holds the service's webhooks.
  const bundle = ctx.bundle('v1', declaration.getSourceFile().fileName);
  const known = (bundle?.doc.webhooks ?? {}) as Record<string, unknown>;
  for (const property of literal.properties) {
    const event = propertyName(ctx, property);
    const handler = ts.isPropertyAssignment(property) ? handlerNode(ctx, property.initializer) : property;
    if (event && event in known) ctx.handlers.push({ family: 'v1', event, site: siteOf(ctx, property), handler });
  }
}

/** The function a handler is: written in place, or the function (or `const`) a name refers to. */
function handlerNode(ctx: Context, value: TS.Expression): TS.Node {
  if (!ctx.ts.isIdentifier(value)) return value;
  const declaration = ctx.checker.getSymbolAtLocation(value)?.valueDeclaration;
  return declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : value;
}
