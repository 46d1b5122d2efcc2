// The response fields a consuming project reads, found through the type checker: a property access, an
// element access by name, a destructured property, an `in` test, optional chaining included, resolves to its
// declaration in the generated types. A read on a value typed by a type parameter is kept apart and resolved
// through each instantiation of its function (assemble.ts). Where the checker cannot follow a value further, the
// whole value counts as read: a cast to any or unknown, a spread or a rest element, a key only known at run time
// (`v[key]`, `for (k in v)`), or a value handed to code outside the project (JSON.stringify, console.log,
// Object.keys, a logger, a test's `expect`). And the statuses the code tells apart (`response.status === 404`,
// `case 404:`, `e.status === 422` on an ApiError), each with the value whose status it is.
import type { ts as TS } from 'ts-morph';
import { type Context, isPrimitive, placeOfDeclaration, scopeOf, siteOf } from './context.js';
import type { Place } from './generated-place.js';

function record(ctx: Context, node: TS.Node, from: TS.Node, places: (Place | undefined)[], whole: boolean): boolean {
  let found = false;
  for (const place of places)
    if (place?.kind === 'schema') {
      ctx.reads.push({ family: place.family, pointer: place.pointer, site: siteOf(ctx, node), whole, node, from });
      found = true;
    }
  return found;
}

/** The members of a type, a union's one by one, null and undefined left out. */
function membersOf(ctx: Context, type: TS.Type): TS.Type[] {
  const plain = ctx.checker.getNonNullableType(type);
  return plain.isUnion() ? plain.types : [plain];
}

/** The compiler's mapper of an instantiated type (not in the public typings). */
type Mapper = { source?: TS.Type; target?: TS.Type; targets?: unknown[]; mapper1?: Mapper; mapper2?: Mapper };

/**
 * The types a mapped type was made from: the generated type behind a `Readonly<T>` or `Partial<T>` of the
 * consumer's, whose index signature (an open object's) keeps no declaration of its own. Read from the instantiation's type mapper, which the
 * public typings do not expose.
 */
function mappedFrom(ctx: Context, type: TS.Type): TS.Type[] {
  const { ts } = ctx;
  if (!(type.flags & ts.TypeFlags.Object) || !((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Mapped)) return [];
  const found: TS.Type[] = [];
  const visit = (mapper: Mapper | undefined, depth: number): void => {
    if (!mapper || depth > 4) return;
    for (const target of [mapper.target, ...(mapper.targets ?? [])])
      if (target && typeof target === 'object' && 'flags' in target) found.push(target as TS.Type);
    visit(mapper.mapper1, depth + 1);
    visit(mapper.mapper2, depth + 1);
  };
  visit((type as unknown as { mapper?: Mapper }).mapper, 0);
  return found.filter((t) => t !== type && t.flags & ts.TypeFlags.Object);
}

/** Where the field `name` of a value of type `type` is declared, for each member of the type. */
export function fieldPlaces(ctx: Context, type: TS.Type, name: string, depth = 0): (Place | undefined)[] {
  return membersOf(ctx, type).flatMap((member) => {
    const property = ctx.checker.getPropertyOfType(member, name);
    if (property) return (property.declarations ?? []).map((d) => placeOfDeclaration(ctx, d));
    const index = ctx.checker.getIndexInfosOfType(member)[0]?.declaration;
    if (index) return [placeOfDeclaration(ctx, index, name)];
    return depth < 3 ? mappedFrom(ctx, member).flatMap((source) => fieldPlaces(ctx, source, name, depth + 1)) : [];
  });
}

/** A type parameter declared in a `<...>` list (not a class's polymorphic `this`, whose fields are its own). */
function isDeclaredTypeParameter(ctx: Context, type: TS.Type): boolean {
  const declaration = type.getSymbol()?.declarations?.[0];
  return Boolean(
    type.flags & ctx.ts.TypeFlags.TypeParameter && declaration && ctx.ts.isTypeParameterDeclaration(declaration),
  );
}

/** Reads `name` of a value of type `type`; on a type parameter, kept to be resolved by its instantiations. */
function readField(ctx: Context, node: TS.Node, from: TS.Node, type: TS.Type, name: string): void {
  for (const member of membersOf(ctx, type))
    if (isDeclaredTypeParameter(ctx, member))
      ctx.genericReads.push({ parameter: member as TS.TypeParameter, name, site: siteOf(ctx, node), node, from });
  record(ctx, node, from, fieldPlaces(ctx, type, name), false);
}

/**
 * Where the type of a value is declared (an array's elements for an array). A type the client's helpers map
 * (openapi-fetch's `data`) is declared nowhere in the generated types: its fields are, and the objects that
 * declare them stand for it.
 */
function typePlaces(ctx: Context, type: TS.Type): (Place | undefined)[] {
  const known = ctx.typePlaces.get(type);
  if (known) return known;
  const places = placesOfType(ctx, type, 0);
  ctx.typePlaces.set(type, places);
  return places;
}

function placesOfType(ctx: Context, type: TS.Type, depth: number): (Place | undefined)[] {
  return membersOf(ctx, type).flatMap((member) => {
    const element = ctx.checker.isArrayType(member)
      ? ctx.checker.getTypeArguments(member as TS.TypeReference)[0]
      : undefined;
    const target = element ?? member;
    const declarations = [...(target.aliasSymbol?.declarations ?? []), ...(target.getSymbol()?.declarations ?? [])];
    const places = declarations.map((d) => placeOfDeclaration(ctx, d)).filter((p) => p?.kind === 'schema');
    if (places.length) return places;
    const fields = holdersOfFields(ctx, target);
    if (fields.length) return fields;
    // An open object the description declares no field of: its index signature stands for it.
    const index = ctx.checker.getIndexInfosOfType(target)[0]?.declaration;
    if (index) return [placeOfDeclaration(ctx, index)];
    return depth < 3 ? mappedFrom(ctx, target).flatMap((source) => placesOfType(ctx, source, depth + 1)) : [];
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
    const places = name === undefined ? [] : fieldPlaces(ctx, checker.getTypeAtLocation(at.expression), name);
    if (record(ctx, at, at.expression, places, true)) return;
  }
  const type = checker.getTypeAtLocation(at);
  if (!isPrimitive(ctx, type)) record(ctx, expression, at, typePlaces(ctx, type), true);
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

const RAMP_API = /[/\\](ramp-api|src[/\\]client)[/\\]/;
/** Lib interfaces whose methods move values without reading their fields. */
const CONTAINERS =
  /^(ReadonlyArray|Array|ArrayConstructor|Promise|PromiseConstructor|Set|ReadonlySet|SetConstructor|Map|ReadonlyMap|MapConstructor|WeakMap|WeakSet)$/;

/**
 * Whether a call hands its arguments to code outside the project that may read them: not the project's own
 * functions, nor ramp-api's (an operation's init, orThrow), nor a container's methods, which only move values.
 */
function handsOutside(ctx: Context, signature: TS.Signature): boolean {
  const declaration = signature.declaration;
  if (!declaration) return true;
  const file = declaration.getSourceFile();
  if (!file.isDeclarationFile || RAMP_API.test(file.fileName)) return false;
  const holder = declaration.parent;
  const named = holder && (ctx.ts.isInterfaceDeclaration(holder) || ctx.ts.isClassDeclaration(holder)) && holder.name;
  return !(named && CONTAINERS.test(named.text));
}

/** A value handed to code outside the project, or passed where any or unknown is taken, is used whole. */
function visitArguments(ctx: Context, call: TS.CallExpression | TS.NewExpression): void {
  const signature = ctx.checker.getResolvedSignature(call);
  if (!signature) return;
  const outside = handsOutside(ctx, signature);
  for (const [index, argument] of (call.arguments ?? []).entries()) {
    const type = parameterType(ctx, signature, index, call);
    if (outside || (type && isLoose(ctx, type)))
      wholeValue(ctx, ctx.ts.isSpreadElement(argument) ? argument.expression : argument);
  }
}

/** The value whose status is compared: `x.status === 404` on a fetch Response or a ramp-api ApiError. */
function statusHolder(ctx: Context, status: TS.Expression, value: TS.Expression): TS.Expression | undefined {
  const { ts, checker } = ctx;
  if (!ts.isNumericLiteral(value) || !ts.isPropertyAccessExpression(status) || status.name.text !== 'status')
    return undefined;
  const declaration = checker.getSymbolAtLocation(status.name)?.declarations?.[0];
  const holder = declaration?.parent;
  if (holder && ts.isInterfaceDeclaration(holder) && holder.name.text === 'Response') return status.expression;
  const isApiError =
    holder && ts.isClassDeclaration(holder) && holder.name?.text === 'ApiError' && RAMP_API.test(fileOfNode(holder));
  return isApiError ? status.expression : undefined;
}

const fileOfNode = (node: TS.Node) => node.getSourceFile().fileName;
const EQUALITY = new Set(['===', '==', '!==', '!=']);

function visitStatus(ctx: Context, node: TS.Node): void {
  const { ts } = ctx;
  let compared: { left: TS.Expression; right: TS.Expression } | undefined;
  if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.getText()))
    compared = { left: node.left, right: node.right };
  if (ts.isCaseClause(node) && ts.isSwitchStatement(node.parent.parent))
    compared = { left: node.parent.parent.expression, right: node.expression };
  if (!compared) return;
  const { left, right } = compared;
  const holder = statusHolder(ctx, left, right) ?? statusHolder(ctx, right, left);
  const status = holder && (ts.isNumericLiteral(right) ? right.text : (left as TS.NumericLiteral).text);
  if (holder && status) ctx.statuses.push({ scope: scopeOf(ctx, node), status, holder });
}

/** `v[key]` with a key known only at run time: every field of v may be read. */
function visitElementAccess(ctx: Context, node: TS.ElementAccessExpression): void {
  const { checker } = ctx;
  const type = checker.getTypeAtLocation(node.expression);
  if (checker.isArrayType(checker.getNonNullableType(type))) return;
  const name = literalText(ctx, node.argumentExpression);
  if (name !== undefined) readField(ctx, node, node.expression, type, name);
  else wholeValue(ctx, node.expression);
}

function visitBinding(ctx: Context, node: TS.BindingElement): void {
  const { ts, checker } = ctx;
  if (node.dotDotDotToken) {
    record(ctx, node, node, typePlaces(ctx, checker.getTypeAtLocation(node.parent)), true);
    return;
  }
  const key = node.propertyName ?? node.name;
  const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
  if (name !== undefined) readField(ctx, node, node, checker.getTypeAtLocation(node.parent), name);
}

/** `[...items]`: an array spread into an array literal moves its elements, whose reads are followed by type. */
function movesElements(ctx: Context, node: TS.SpreadElement): boolean {
  const { ts, checker } = ctx;
  return ts.isArrayLiteralExpression(node.parent) && checker.isArrayType(checker.getTypeAtLocation(node.expression));
}

/** Whether a cast or a declared type is to any or unknown: what the checker can follow ends there. */
function castsLoose(ctx: Context, node: TS.Node): TS.Expression | undefined {
  const { ts, checker } = ctx;
  if (
    (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
    isLoose(ctx, checker.getTypeFromTypeNode(node.type))
  )
    return node.expression;
  if (
    ts.isVariableDeclaration(node) &&
    node.type &&
    node.initializer &&
    isLoose(ctx, checker.getTypeFromTypeNode(node.type))
  )
    return node.initializer;
  return undefined;
}

/** Whether an expression is of a kind that can hold an answer (not a literal, a function, a template). */
function mayHoldAnswer(ctx: Context, node: TS.Node): node is TS.Expression {
  const { ts } = ctx;
  return (
    ts.isIdentifier(node) ||
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isCallExpression(node) ||
    ts.isAwaitExpression(node) ||
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isConditionalExpression(node) ||
    ts.isBinaryExpression(node)
  );
}

/** Whether an expression stands where its value is handed to a place with a type of its own. */
function handedTo(ctx: Context, node: TS.Node): boolean {
  const { ts } = ctx;
  const parent = node.parent;
  if (!parent) return false;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return parent.expression !== node;
  return (
    (ts.isPropertyAssignment(parent) && parent.initializer === node) ||
    ts.isShorthandPropertyAssignment(parent) ||
    ts.isArrayLiteralExpression(parent) ||
    ts.isReturnStatement(parent) ||
    (ts.isArrowFunction(parent) && parent.body === node) ||
    (ts.isVariableDeclaration(parent) && parent.initializer === node && parent.type !== undefined) ||
    (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
  );
}

const hasTypeParameter = (ctx: Context, type: TS.Type) =>
  membersOf(ctx, type).some(
    (m) =>
      m.isTypeParameter() ||
      (ctx.checker.isArrayType(m) &&
        ctx.checker.getTypeArguments(m as TS.TypeReference).some((a) => a.isTypeParameter())),
  );

/**
 * A value of the generated types handed to a place typed otherwise (`unknown`, `object`, `Record<string, unknown>`,
 * an interface of the project's own) can no longer be followed by its type: it is used whole. A type parameter is
 * not such a place: its reads are resolved through each instantiation.
 */
function visitHandOver(ctx: Context, node: TS.Expression, target: TS.Type | undefined): void {
  const { checker } = ctx;
  if (!target || hasTypeParameter(ctx, target)) return;
  const type = checker.getTypeAtLocation(node);
  if (isPrimitive(ctx, type) || !typePlaces(ctx, type).length) return;
  if (isLoose(ctx, target) || !typePlaces(ctx, target).length) wholeValue(ctx, node);
}

/** Whether a property access is `e.body` of ramp-api's ApiError. */
function isErrorBody(ctx: Context, node: TS.PropertyAccessExpression): boolean {
  const { ts } = ctx;
  if (node.name.text !== 'body') return false;
  const holder = ctx.checker.getSymbolAtLocation(node.name)?.declarations?.[0]?.parent;
  return Boolean(
    holder && ts.isClassDeclaration(holder) && holder.name?.text === 'ApiError' && RAMP_API.test(fileOfNode(holder)),
  );
}

/** Records what `node` reads (field reads, whole values, statuses). */
export function visitRead(ctx: Context, node: TS.Node): void {
  const { ts, checker } = ctx;
  const loose = castsLoose(ctx, node);
  if (ts.isPropertyAccessExpression(node)) {
    readField(ctx, node.name, node.expression, checker.getTypeAtLocation(node.expression), node.name.text);
    if (isErrorBody(ctx, node)) ctx.errorBodies.push({ site: siteOf(ctx, node), node, from: node.expression });
  } else if (ts.isElementAccessExpression(node)) visitElementAccess(ctx, node);
  else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) visitBinding(ctx, node);
  else if (loose) wholeValue(ctx, loose);
  else if (ts.isSpreadAssignment(node) || (ts.isSpreadElement(node) && !movesElements(ctx, node)))
    wholeValue(ctx, node.expression);
  else if (ts.isForInStatement(node)) wholeValue(ctx, node.expression);
  else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword) {
    const name = literalText(ctx, node.left);
    if (name !== undefined) readField(ctx, node, node.right, checker.getTypeAtLocation(node.right), name);
  } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) visitArguments(ctx, node);
  if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !loose && !ts.isConstTypeReference(node.type))
    visitHandOver(ctx, node.expression, checker.getTypeFromTypeNode(node.type));
  else if (mayHoldAnswer(ctx, node) && handedTo(ctx, node)) visitHandOver(ctx, node, checker.getContextualType(node));
  visitStatus(ctx, node);
}
