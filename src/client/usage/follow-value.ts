// Follows a value the project sends (a request body, a client's options) from where it is used back to the
// object and array literals it is built from: through variables (a `const`, or a `let` with each value assigned
// to it), the fields set on them (`body.note = 'x'`), the returns of the project's functions (across modules),
// conditionals, spreads, casts and `await`. What cannot be followed (a parameter, a computed key, a value passed
// to other code before it is sent, a value from outside the project) is reported with its reason.
import { relative } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { type Context, isWrapping, siteOf } from './context.js';

export interface ValueVisitor {
  /** A field an object the value may be sets: its value, or undefined for a method or an accessor. */
  property(name: string, value: TS.Expression | undefined, node: TS.Node): void;
  /** An element of an array the value may be. */
  element(value: TS.Expression): void;
  /** A part of the value that cannot be followed, and why: `a parameter at src/a.ts:3`. */
  unknown(reason: string): void;
}

/** The expression under parentheses, casts, `satisfies`, `!` and `await`. */
function unwrap(ts: typeof TS, expression: TS.Expression): TS.Expression {
  let at = expression;
  while (isWrapping(ts, at)) at = at.expression;
  return at;
}

/** Whether every value the expression may have is a primitive (nothing under it to follow). */
function isPrimitive(ctx: Context, node: TS.Node): boolean {
  const { ts } = ctx;
  if (
    ts.isLiteralExpression(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword
  )
    return true;
  const primitive =
    ts.TypeFlags.StringLike |
    ts.TypeFlags.NumberLike |
    ts.TypeFlags.BooleanLike |
    ts.TypeFlags.BigIntLike |
    ts.TypeFlags.EnumLike |
    ts.TypeFlags.ESSymbolLike |
    ts.TypeFlags.Null |
    ts.TypeFlags.Undefined |
    ts.TypeFlags.Void;
  const type = ctx.checker.getTypeAtLocation(node);
  return (type.isUnion() ? type.types : [type]).every((t) => (t.flags & primitive) !== 0);
}

/** Whether a node is in the project's own source (not a declaration file, not a dependency). */
export function inProject(ctx: Context, node: TS.Node): boolean {
  const file = node.getSourceFile();
  const path = relative(ctx.projectDir, file.fileName);
  return !file.isDeclarationFile && !path.startsWith('..') && !/(^|[/\\])node_modules[/\\]/.test(path);
}

/** A property name known without running the code: `a`, `'a'`, `1`, `['a']`; undefined for a computed one. */
function staticName(ts: typeof TS, name: TS.Node): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return staticName(ts, name.expression);
  return undefined;
}

/** The symbol a name refers to: a shorthand property's variable, an import's target. */
function symbolOf(ctx: Context, name: TS.Identifier): TS.Symbol | undefined {
  const { ts, checker } = ctx;
  const symbol =
    ts.isShorthandPropertyAssignment(name.parent) && name.parent.name === name
      ? checker.getShorthandAssignmentValueSymbol(name.parent)
      : checker.getSymbolAtLocation(name);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Follows `expression` to the literals it is built from, telling `visitor` what they hold. */
export function followValue(
  ctx: Context,
  expression: TS.Expression,
  visitor: ValueVisitor,
  along: Set<TS.Node> = new Set(),
): void {
  const { ts } = ctx;
  const at = unwrap(ts, expression);
  if (ts.isObjectLiteralExpression(at)) followObject(ctx, at, visitor, along);
  else if (ts.isArrayLiteralExpression(at)) {
    for (const element of at.elements) {
      if (ts.isSpreadElement(element)) followValue(ctx, element.expression, visitor, along);
      else if (!ts.isOmittedExpression(element)) visitor.element(element);
    }
  } else if (ts.isConditionalExpression(at)) {
    followValue(ctx, at.whenTrue, visitor, along);
    followValue(ctx, at.whenFalse, visitor, along);
  } else if (ts.isBinaryExpression(at) && isEither(ts, at.operatorToken.kind)) {
    followValue(ctx, at.left, visitor, along);
    followValue(ctx, at.right, visitor, along);
  } else if (isPrimitive(ctx, at)) return;
  else if (ts.isIdentifier(at)) followName(ctx, at, visitor, along);
  else if (ts.isCallExpression(at)) followCall(ctx, at, visitor, along);
  else visitor.unknown(`a value built at run time at ${siteOf(ctx, at)}`);
}

/** Whether a binary operator's value is one of its two sides (`??`, `||`, `&&`). */
const isEither = (ts: typeof TS, kind: TS.SyntaxKind) =>
  kind === ts.SyntaxKind.QuestionQuestionToken ||
  kind === ts.SyntaxKind.BarBarToken ||
  kind === ts.SyntaxKind.AmpersandAmpersandToken;

function followObject(ctx: Context, literal: TS.ObjectLiteralExpression, visitor: ValueVisitor, along: Set<TS.Node>) {
  const { ts } = ctx;
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) {
      followValue(ctx, property.expression, visitor, along);
      continue;
    }
    const name = staticName(ts, property.name);
    if (name === undefined) visitor.unknown(`a computed key at ${siteOf(ctx, property)}`);
    else if (ts.isPropertyAssignment(property)) visitor.property(name, property.initializer, property);
    else if (ts.isShorthandPropertyAssignment(property)) visitor.property(name, property.name, property);
    else visitor.property(name, undefined, property);
  }
}

/** Runs `during` with `node` on the path being followed; a node already on it is not followed again. */
function once(along: Set<TS.Node>, node: TS.Node, during: () => void): void {
  if (along.has(node)) return;
  along.add(node);
  try {
    during();
  } finally {
    along.delete(node);
  }
}

function followName(ctx: Context, name: TS.Identifier, visitor: ValueVisitor, along: Set<TS.Node>): void {
  const { ts } = ctx;
  const symbol = symbolOf(ctx, name);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  const why = !declaration
    ? `a value built at run time at ${siteOf(ctx, name)}`
    : !inProject(ctx, declaration)
      ? `a value from outside the project at ${siteOf(ctx, name)}`
      : ts.isParameter(declaration)
        ? `a parameter at ${siteOf(ctx, declaration)}`
        : !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name)
          ? `a value built at run time at ${siteOf(ctx, declaration)}`
          : undefined;
  if (why !== undefined || !symbol) {
    visitor.unknown(why ?? `a value built at run time at ${siteOf(ctx, name)}`);
    return;
  }
  const variable = declaration as TS.VariableDeclaration;
  once(along, variable, () => {
    if (variable.initializer) followValue(ctx, variable.initializer, visitor, along);
    else if (
      !ts.isVariableDeclarationList(variable.parent) ||
      ts.isForInStatement(variable.parent.parent) ||
      ts.isForOfStatement(variable.parent.parent)
    )
      visitor.unknown(`a value built at run time at ${siteOf(ctx, variable)}`);
    followUses(ctx, variable, symbol, name, visitor, along);
  });
}

/** What the code does with a variable besides sending it: values assigned, fields set, elements added, escapes. */
function followUses(
  ctx: Context,
  variable: TS.VariableDeclaration,
  symbol: TS.Symbol,
  use: TS.Identifier,
  visitor: ValueVisitor,
  along: Set<TS.Node>,
): void {
  for (const found of usesOf(ctx, variable, symbol)) {
    if (found.kind === 'assigned') followValue(ctx, found.value, visitor, along);
    else if (found.kind === 'field') visitor.property(found.name, found.value, found.node);
    else if (found.kind === 'elements') for (const value of found.values) visitor.element(value);
    else if (found.kind === 'unknown') visitor.unknown(found.reason);
    else if (found.node.getStart() < use.getStart() || found.node.getSourceFile() !== use.getSourceFile())
      visitor.unknown(`${found.why} at ${siteOf(ctx, found.node)}`);
  }
}

type Use =
  | { kind: 'assigned'; value: TS.Expression }
  | { kind: 'field'; name: string; value: TS.Expression; node: TS.Node }
  | { kind: 'elements'; values: TS.Expression[] }
  | { kind: 'unknown'; reason: string }
  | { kind: 'escape'; node: TS.Node; why: string };

/** Array methods that add their arguments (from the index given) as elements. */
const ADDS_ELEMENTS = new Map([
  ['push', 0],
  ['unshift', 0],
  ['splice', 2],
  ['fill', 0],
]);

/**
 * The uses of a variable in the function that declares it, or, for one declared at a module's top, in every file
 * of the project (another module may import it and set its fields); found once per variable.
 */
function usesOf(ctx: Context, variable: TS.VariableDeclaration, symbol: TS.Symbol): Use[] {
  const cached = usesCache.get(variable);
  if (cached) return cached;
  const { ts } = ctx;
  const uses: Use[] = [];
  const name = (variable.name as TS.Identifier).text;
  let scope: TS.Node = variable;
  while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  const visit = (node: TS.Node): void => {
    if (ts.isIdentifier(node) && node.text === name && node !== variable.name && symbolOf(ctx, node) === symbol) {
      const use = useAt(ctx, node);
      if (use) uses.push(use);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of ts.isSourceFile(scope) && ctx.files.length ? ctx.files : [scope]) visit(file);
  usesCache.set(variable, uses);
  return uses;
}
const usesCache = new WeakMap<TS.Node, Use[]>();

const isAssignment = (ts: typeof TS, node: TS.Node, left: TS.Node): node is TS.BinaryExpression =>
  ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && node.left === left;

/** What one reference to the variable does to its value; undefined when it only reads it. */
function useAt(ctx: Context, reference: TS.Identifier): Use | undefined {
  const { ts } = ctx;
  const keys: (string | undefined)[] = [];
  let at: TS.Expression = reference;
  while (
    (ts.isPropertyAccessExpression(at.parent) || ts.isElementAccessExpression(at.parent)) &&
    at.parent.expression === at
  ) {
    const parent: TS.PropertyAccessExpression | TS.ElementAccessExpression = at.parent;
    // A variable key (`body[key]`) is computed; a literal one (`body['a']`) is not.
    keys.push(
      ts.isPropertyAccessExpression(parent)
        ? parent.name.text
        : ts.isIdentifier(parent.argumentExpression)
          ? undefined
          : staticName(ts, parent.argumentExpression),
    );
    at = parent;
  }
  const holder = at.parent;
  if (!keys.length) {
    if (isAssignment(ts, holder, at)) return { kind: 'assigned', value: holder.right };
    const call = ts.isCallExpression(holder) || ts.isNewExpression(holder) ? holder : undefined;
    if (call?.arguments?.includes(at)) return { kind: 'escape', node: at, why: 'passed to other code' };
    // Another name for the same object, whose fields may be set through it.
    const copied =
      (ts.isVariableDeclaration(holder) && holder.initializer === at) ||
      (ts.isBinaryExpression(holder) && holder.operatorToken.kind === ts.SyntaxKind.EqualsToken && holder.right === at);
    return copied ? { kind: 'escape', node: at, why: 'another name given to it' } : undefined;
  }
  const [first] = keys;
  if (isAssignment(ts, holder, at)) {
    if (keys.length > 1 || first === undefined)
      return {
        kind: 'unknown',
        reason: `${first === undefined ? 'a computed key' : 'a nested field set'} at ${siteOf(ctx, holder)}`,
      };
    return { kind: 'field', name: first, value: holder.right, node: holder };
  }
  const added = first === undefined ? undefined : ADDS_ELEMENTS.get(first);
  if (ts.isCallExpression(holder) && holder.expression === at && keys.length === 1 && added !== undefined)
    return { kind: 'elements', values: holder.arguments.slice(added) };
  return undefined;
}

/** `items.map((x) => ({ ... }))`: the elements the callback, written in place, returns; false for another call. */
function followMap(ctx: Context, call: TS.CallExpression, visitor: ValueVisitor): boolean {
  const { ts, checker } = ctx;
  const [callback] = call.arguments;
  if (
    !ts.isPropertyAccessExpression(call.expression) ||
    call.expression.name.text !== 'map' ||
    !callback ||
    !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ||
    !checker.isArrayLikeType(checker.getTypeAtLocation(call.expression.expression))
  )
    return false;
  returnsOf(ctx, callback, (value) => visitor.element(value));
  return true;
}

/** Calls `onReturn` with each value a function may return (its expression body, or each `return`). */
function returnsOf(ctx: Context, fn: TS.FunctionLikeDeclaration, onReturn: (value: TS.Expression) => void): void {
  const { ts } = ctx;
  const body = fn.body;
  if (!body) return;
  if (!ts.isBlock(body)) {
    onReturn(body);
    return;
  }
  const returns = (node: TS.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) onReturn(node.expression);
    else if (!ts.isFunctionLike(node)) ts.forEachChild(node, returns);
  };
  ts.forEachChild(body, returns);
}

/** Follows each value a function of the project may return. */
function followCall(ctx: Context, call: TS.CallExpression, visitor: ValueVisitor, along: Set<TS.Node>): void {
  const { ts } = ctx;
  if (followMap(ctx, call, visitor)) return;
  const callee = ts.isIdentifier(call.expression)
    ? symbolOf(ctx, call.expression)
    : ts.isPropertyAccessExpression(call.expression)
      ? ctx.checker.getSymbolAtLocation(call.expression.name)
      : undefined;
  const declared = callee?.valueDeclaration ?? callee?.declarations?.[0];
  const declaration: TS.Node | undefined =
    declared && ts.isVariableDeclaration(declared) && declared.initializer
      ? unwrap(ts, declared.initializer)
      : declared;
  const fn = declaration;
  if (!fn || !inProject(ctx, fn)) {
    visitor.unknown(`a value from outside the project at ${siteOf(ctx, call)}`);
    return;
  }
  if (!ts.isFunctionLike(fn) || !('body' in fn) || !fn.body) {
    visitor.unknown(`a value built at run time at ${siteOf(ctx, call)}`);
    return;
  }
  once(along, fn, () =>
    returnsOf(ctx, fn as TS.FunctionLikeDeclaration, (value) => followValue(ctx, value, visitor, along)),
  );
}
