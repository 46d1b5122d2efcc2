// The response fields a consuming project reads, found through the type checker: a property access, an
// element access by name, a destructured property, optional chaining included, resolves to its declaration in
// the generated types. Where the checker cannot follow a value further (a cast to any or unknown, a spread, a
// value passed where any or unknown is taken, such as JSON.stringify's or console.log's argument), the whole
// value counts as read. And the statuses the code tells apart (`response.status === 404`, `case 404:`).
import type { ts as TS } from 'ts-morph';
import { type Context, placeOfDeclaration, scopeOf, siteOf } from './context.js';
import type { Place } from './generated-place.js';

function record(ctx: Context, node: TS.Node, places: (Place | undefined)[], whole: boolean): boolean {
  let found = false;
  for (const place of places)
    if (place?.kind === 'schema') {
      ctx.reads.push({ family: place.family, pointer: place.pointer, site: siteOf(ctx, node), whole, node });
      found = true;
    }
  return found;
}

/** The members of a type, a union's one by one, null and undefined left out. */
function membersOf(ctx: Context, type: TS.Type): TS.Type[] {
  const plain = ctx.checker.getNonNullableType(type);
  return plain.isUnion() ? plain.types : [plain];
}

/** Where the field `name` of a value of type `type` is declared, for each member of the type. */
function fieldPlaces(ctx: Context, type: TS.Type, name: string): (Place | undefined)[] {
  return membersOf(ctx, type).flatMap((member) => {
    const property = ctx.checker.getPropertyOfType(member, name);
    if (property) return (property.declarations ?? []).map((d) => placeOfDeclaration(ctx, d));
    const index = ctx.checker.getIndexInfosOfType(member)[0]?.declaration;
    return index ? [placeOfDeclaration(ctx, index, name)] : [];
  });
}

/**
 * Where the type of a value is declared (an array's elements for an array). A type the client's helpers map
 * (openapi-fetch's `data`) is declared nowhere in the generated types: its fields are, and the objects that
 * declare them stand for it.
 */
function typePlaces(ctx: Context, type: TS.Type): (Place | undefined)[] {
  return membersOf(ctx, type).flatMap((member) => {
    const element = ctx.checker.isArrayType(member)
      ? ctx.checker.getTypeArguments(member as TS.TypeReference)[0]
      : undefined;
    const target = element ?? member;
    const declarations = [...(target.aliasSymbol?.declarations ?? []), ...(target.getSymbol()?.declarations ?? [])];
    const places = declarations.map((d) => placeOfDeclaration(ctx, d)).filter((p) => p?.kind === 'schema');
    return places.length ? places : holdersOfFields(ctx, target);
  });
}

/** The schemas that declare a type's fields (`/components/schemas/X` for `/components/schemas/X/properties/id`). */
function holdersOfFields(ctx: Context, type: TS.Type): Place[] {
  const holders = new Map<string, Place>();
  for (const property of type.getProperties())
    for (const declaration of property.declarations ?? []) {
      const place = placeOfDeclaration(ctx, declaration);
      const holder = place?.kind === 'schema' ? /^(.*)\/properties\/[^/]+$/.exec(place.pointer)?.[1] : undefined;
      if (place && holder !== undefined)
        holders.set(`${place.family} ${holder}`, { ...place, pointer: holder } as Place);
    }
  return [...holders.values()];
}

/** Records a value used whole: the field it is, or else the schema its type is. */
function wholeValue(ctx: Context, expression: TS.Expression): void {
  const { ts, checker } = ctx;
  let at = expression;
  while (ts.isParenthesizedExpression(at) || ts.isNonNullExpression(at)) at = at.expression;
  if (ts.isPropertyAccessExpression(at) || ts.isElementAccessExpression(at)) {
    const name = ts.isPropertyAccessExpression(at) ? at.name.text : literalText(ctx, at.argumentExpression);
    if (name !== undefined && record(ctx, at, fieldPlaces(ctx, checker.getTypeAtLocation(at.expression), name), true))
      return;
  }
  record(ctx, expression, typePlaces(ctx, checker.getTypeAtLocation(at)), true);
}

const literalText = (ctx: Context, node: TS.Expression) =>
  ctx.ts.isStringLiteralLike(node) || ctx.ts.isNumericLiteral(node) ? node.text : undefined;

const isLoose = (ctx: Context, type: TS.Type) => (type.flags & (ctx.ts.TypeFlags.Any | ctx.ts.TypeFlags.Unknown)) !== 0;

/** A parameter's type as an argument meets it (a rest parameter's element type). */
function parameterType(ctx: Context, signature: TS.Signature, index: number, call: TS.CallLikeExpression) {
  const { parameters } = signature;
  const parameter = parameters[Math.min(index, parameters.length - 1)];
  if (!parameter) return undefined;
  const type = ctx.checker.getTypeOfSymbolAtLocation(parameter, call);
  const rest = index >= parameters.length - 1 && ctx.checker.isArrayType(type);
  return rest ? ctx.checker.getTypeArguments(type as TS.TypeReference)[0] : type;
}

/** A value passed where any or unknown is taken is used whole. */
function visitArguments(ctx: Context, call: TS.CallExpression): void {
  const signature = ctx.checker.getResolvedSignature(call);
  if (!signature) return;
  for (const [index, argument] of call.arguments.entries()) {
    const type = parameterType(ctx, signature, index, call);
    if (type && isLoose(ctx, type)) wholeValue(ctx, ctx.ts.isSpreadElement(argument) ? argument.expression : argument);
  }
}

/** A status compared with a number: `x.status === 404` (a fetch Response's status). */
function statusCompared(ctx: Context, status: TS.Expression, value: TS.Expression): string | undefined {
  const { ts, checker } = ctx;
  if (!ts.isNumericLiteral(value) || !ts.isPropertyAccessExpression(status) || status.name.text !== 'status')
    return undefined;
  const holder = checker.getSymbolAtLocation(status.name)?.declarations?.[0]?.parent;
  return holder && ts.isInterfaceDeclaration(holder) && holder.name.text === 'Response' ? value.text : undefined;
}

const EQUALITY = new Set(['===', '==', '!==', '!=']);

function visitStatus(ctx: Context, node: TS.Node): void {
  const { ts } = ctx;
  let status: string | undefined;
  if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.getText()))
    status = statusCompared(ctx, node.left, node.right) ?? statusCompared(ctx, node.right, node.left);
  if (ts.isCaseClause(node) && ts.isSwitchStatement(node.parent.parent))
    status = statusCompared(ctx, node.parent.parent.expression, node.expression);
  if (status) ctx.statuses.push({ scope: scopeOf(ctx, node), status });
}

/** Records what `node` reads (field reads, whole values, statuses). */
export function visitRead(ctx: Context, node: TS.Node): void {
  const { ts, checker } = ctx;
  if (ts.isPropertyAccessExpression(node))
    record(ctx, node.name, fieldPlaces(ctx, checker.getTypeAtLocation(node.expression), node.name.text), false);
  else if (ts.isElementAccessExpression(node)) {
    const name = literalText(ctx, node.argumentExpression);
    if (
      name !== undefined &&
      !checker.isArrayType(checker.getNonNullableType(checker.getTypeAtLocation(node.expression)))
    )
      record(ctx, node, fieldPlaces(ctx, checker.getTypeAtLocation(node.expression), name), false);
  } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
    const key = node.propertyName ?? node.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
    if (name !== undefined && !node.dotDotDotToken)
      record(ctx, node, fieldPlaces(ctx, checker.getTypeAtLocation(node.parent), name), false);
  } else if (
    (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
    isLoose(ctx, checker.getTypeFromTypeNode(node.type))
  )
    wholeValue(ctx, node.expression);
  else if (ts.isSpreadAssignment(node) || ts.isSpreadElement(node)) wholeValue(ctx, node.expression);
  else if (
    ts.isVariableDeclaration(node) &&
    node.type &&
    node.initializer &&
    isLoose(ctx, checker.getTypeFromTypeNode(node.type))
  )
    wholeValue(ctx, node.initializer);
  else if (ts.isCallExpression(node)) visitArguments(ctx, node);
  visitStatus(ctx, node);
}
