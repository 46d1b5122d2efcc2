// The calls a consuming project makes: `client.createPayout(init)` (a method of the operation table) and
// `client.POST('/api/v1/...', init)` (openapi-fetch's path-based call on a ramp-api client), with the
// parameters and request fields each sets; and the events its webhook handlers handle.
import type { ts as TS } from 'ts-morph';
import { type CallFound, type Context, placeOfDeclaration, scopeOf, siteOf } from './context.js';

const PATH_METHODS = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE)$/;
const OPENAPI_FETCH = /[/\\]openapi-fetch[/\\]/;

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
  if (!PATH_METHODS.test(method.text) || !OPENAPI_FETCH.test(declaration.getSourceFile().fileName)) return undefined;
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

/** The object literal an expression is, or a `const` it names was initialised with; undefined otherwise. */
function objectLiteralOf(ctx: Context, expression: TS.Expression | undefined): TS.ObjectLiteralExpression | undefined {
  const { ts, checker } = ctx;
  let at = expression;
  while (at && ts.isParenthesizedExpression(at)) at = at.expression;
  if (at && ts.isObjectLiteralExpression(at)) return at;
  if (!at || !ts.isIdentifier(at)) return undefined;
  const declaration = checker.getSymbolAtLocation(at)?.valueDeclaration;
  if (!declaration || !ts.isVariableDeclaration(declaration) || declaration.type) return undefined;
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const)) return undefined;
  return objectLiteralOf(ctx, declaration.initializer);
}

const propertyName = (ctx: Context, property: TS.ObjectLiteralElementLike) => {
  const { name } = property;
  return name && (ctx.ts.isIdentifier(name) || ctx.ts.isStringLiteralLike(name)) ? name.text : undefined;
};

/**
 * The type a literal is checked against. openapi-fetch's init is a type parameter inferred from the literal
 * itself, so its declared type is the contextual type with the literal's own inferences ignored (the compiler's
 * `ContextFlags.IgnoreNodeInferences`, which completions use; the flag is not in the public typings).
 */
function declaredContext(ctx: Context, literal: TS.ObjectLiteralExpression): TS.Type | undefined {
  const flags = (ctx.ts as unknown as { ContextFlags?: Record<string, number> }).ContextFlags;
  const contextual = ctx.checker.getContextualType as (node: TS.Expression, flags?: number) => TS.Type | undefined;
  return contextual.call(ctx.checker, literal, flags?.IgnoreNodeInferences) ?? ctx.checker.getContextualType(literal);
}

/** The request fields an object literal of the body sets, nested literals included. */
function bodyFields(ctx: Context, expression: TS.Expression | undefined, found: CallFound): void {
  const { ts, checker } = ctx;
  const literal = objectLiteralOf(ctx, expression);
  if (!literal) {
    found.dynamic = true;
    return;
  }
  const type = declaredContext(ctx, literal);
  for (const property of literal.properties) {
    const name = propertyName(ctx, property);
    if (ts.isSpreadAssignment(property) || name === undefined) {
      found.dynamic = true;
      continue;
    }
    const declaration = type && checker.getPropertyOfType(type, name)?.declarations?.[0];
    const place = declaration && placeOfDeclaration(ctx, declaration);
    if (place?.kind === 'schema') found.requestFields.push({ pointer: place.pointer, site: siteOf(ctx, property) });
    const value = ts.isPropertyAssignment(property) ? property.initializer : undefined;
    if (value && ts.isObjectLiteralExpression(value)) bodyFields(ctx, value, found);
  }
}

/** The parameters (`path user_id`) and request fields an init argument sets. */
function readInit(ctx: Context, init: TS.Expression | undefined, found: CallFound): void {
  const { ts } = ctx;
  if (!init) return;
  const literal = objectLiteralOf(ctx, init);
  if (!literal) {
    found.dynamic = true;
    return;
  }
  for (const property of literal.properties) {
    const name = propertyName(ctx, property);
    const value = ts.isPropertyAssignment(property) ? property.initializer : undefined;
    if (name === 'body') bodyFields(ctx, value ?? (property.name as TS.Expression), found);
    if (name !== 'params') continue;
    for (const group of objectLiteralOf(ctx, value)?.properties ?? []) {
      const where = propertyName(ctx, group);
      const inner = ts.isPropertyAssignment(group) ? objectLiteralOf(ctx, group.initializer) : undefined;
      for (const parameter of inner?.properties ?? []) {
        const parameterName = propertyName(ctx, parameter);
        if (where && parameterName) found.parameters.push(`${where} ${parameterName}`);
      }
    }
  }
}

/** Records the call if it is a call of an operation. */
export function visitCall(ctx: Context, call: TS.CallExpression): void {
  const operation = operationOf(ctx, call);
  if (!operation) return;
  const found: CallFound = {
    family: operation.family,
    operationId: operation.operationId,
    site: siteOf(ctx, call),
    node: call,
    scope: scopeOf(ctx, call),
    parameters: [],
    requestFields: [],
    dynamic: false,
  };
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
