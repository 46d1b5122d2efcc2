// Where a value comes from: the operation calls (or the webhook handlers) whose answers flow to an expression,
// followed backwards through variables and destructuring, awaits and casts, the client's `orThrow` and `unwrap`,
// the methods of arrays and promises, `Promise.all`, the returns of the project's functions, their parameters (from
// each of their calls), class fields and what is assigned to them. Undefined when the flow cannot be followed: the
// caller then falls back on every operation whose answer can hold what is read, which is never less than the truth.
import type { ts as TS } from 'ts-morph';
import { type CallFound, type Context, type HandlerFound, isPrimitive, isWrapping } from './context.js';
import { isPassedAsValue, ownDeclaration } from './flow-index.js';

export type Origin = CallFound | HandlerFound;
/** The origins found; an empty set: no answer of the API flows there. */
export type Origins = Set<Origin> | undefined;

/** The functions of ramp-api that return (or throw) what the answer they are given holds. */
const PASS_THROUGH = new Set(['orThrow', 'unwrap']);
const PROMISE_COMBINERS = new Set(['all', 'allSettled', 'race', 'any', 'resolve']);
/** Container methods whose result is what their callbacks return, not the elements they are called on. */
const MAPPING = new Set(['map', 'flatMap', 'reduce', 'reduceRight', 'then']);
/** Promise methods whose result is either the settled value or what their callback returns. */
const RECOVERING = new Set(['catch', 'finally']);
/** How far a flow is followed before it is given up as not followed. */
const MAX_DEPTH = 40;

/** The union of origins; any unknown part makes the whole unknown. */
function union(parts: Iterable<Origins>): Origins {
  const out = new Set<Origin>();
  for (const part of parts) {
    if (!part) return undefined;
    for (const origin of part) out.add(origin);
  }
  return out;
}

interface Tracer {
  ctx: Context;
  calls: Map<TS.Node, CallFound>;
  handlers: Map<TS.Node, HandlerFound>;
  memo: Map<TS.Node, Origins>;
  active: Set<TS.Node>;
}

/** A function `(expression) => origins`, remembering what it found for the run. */
export function originTracer(ctx: Context): (expression: TS.Node) => Origins {
  const tracer: Tracer = {
    ctx,
    calls: new Map(ctx.calls.map((c) => [c.node, c])),
    handlers: new Map(ctx.handlers.map((h) => [h.handler, h])),
    memo: new Map(),
    active: new Set(),
  };
  return (expression) => originsOf(tracer, expression, 0);
}

function originsOf(t: Tracer, node: TS.Node, depth: number): Origins {
  if (t.memo.has(node)) return t.memo.get(node);
  // A value that flows back into itself adds nothing to what its other sources give.
  if (t.active.has(node)) return new Set();
  if (depth > MAX_DEPTH) return undefined;
  t.active.add(node);
  const found = originsOfNode(t, node, depth + 1);
  t.active.delete(node);
  t.memo.set(node, found);
  return found;
}

function originsOfNode(t: Tracer, node: TS.Node, depth: number): Origins {
  const { ts } = t.ctx;
  if (!ts.isBindingElement(node) && isPrimitive(t.ctx, t.ctx.checker.getTypeAtLocation(node))) return new Set();
  const next = (n: TS.Node | undefined): Origins => (n ? originsOf(t, n, depth) : new Set());
  if (isWrapping(ts, node) || ts.isSpreadElement(node)) return next(node.expression);
  if (ts.isPropertyAccessExpression(node)) return memberOrigins(t, node, node.name, depth);
  if (ts.isElementAccessExpression(node)) return next(node.expression);
  if (ts.isCallExpression(node)) return callOrigins(t, node, depth);
  if (ts.isBindingElement(node)) return bindingOrigins(t, node, depth);
  if (ts.isIdentifier(node)) return identifierOrigins(t, node, depth);
  if (ts.isArrayLiteralExpression(node)) return union(node.elements.map(next));
  if (ts.isObjectLiteralExpression(node)) return union(node.properties.map((p) => propertyValue(t, p, depth)));
  if (ts.isConditionalExpression(node)) return union([next(node.whenTrue), next(node.whenFalse)]);
  if (ts.isBinaryExpression(node)) return binaryOrigins(t, node, depth);
  if (isLiteral(t.ctx, node)) return new Set();
  return undefined;
}

function isLiteral(ctx: Context, node: TS.Node): boolean {
  const { ts } = ctx;
  return (
    ts.isStringLiteralLike(node) ||
    ts.isNumericLiteral(node) ||
    ts.isTemplateExpression(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isIdentifier(node) && node.text === 'undefined')
  );
}

function binaryOrigins(t: Tracer, node: TS.BinaryExpression, depth: number): Origins {
  const { ts } = t.ctx;
  const operator = node.operatorToken.kind;
  const either = [
    ts.SyntaxKind.QuestionQuestionToken,
    ts.SyntaxKind.BarBarToken,
    ts.SyntaxKind.AmpersandAmpersandToken,
    ts.SyntaxKind.CommaToken,
  ];
  if (either.includes(operator)) return union([originsOf(t, node.left, depth), originsOf(t, node.right, depth)]);
  if (operator === ts.SyntaxKind.EqualsToken) return originsOf(t, node.right, depth);
  return new Set();
}

function propertyValue(t: Tracer, property: TS.ObjectLiteralElementLike, depth: number): Origins {
  const { ts } = t.ctx;
  if (ts.isPropertyAssignment(property)) return originsOf(t, property.initializer, depth);
  if (ts.isShorthandPropertyAssignment(property)) return originsOf(t, property.name, depth);
  if (ts.isSpreadAssignment(property)) return originsOf(t, property.expression, depth);
  return new Set();
}

/**
 * `a.b`: a field of a project object or class (its initialiser and what is assigned to it), else a part of the
 * value `a` (the same answer).
 */
function memberOrigins(t: Tracer, node: TS.PropertyAccessExpression, name: TS.Node, depth: number): Origins {
  const { ts, checker } = t.ctx;
  const declaration = ownDeclaration(t.ctx, checker.getSymbolAtLocation(name));
  if (!declaration) return originsOf(t, node.expression, depth);
  if (ts.isPropertyDeclaration(declaration) || ts.isPropertyAssignment(declaration))
    return storedOrigins(t, declaration, declaration.initializer, depth);
  if (ts.isShorthandPropertyAssignment(declaration)) return originsOf(t, declaration.name, depth);
  if (ts.isGetAccessorDeclaration(declaration)) return returnsOf(t, declaration, depth);
  return undefined;
}

/** A variable's or field's origins: its initialiser and every value assigned to it afterwards. */
function storedOrigins(t: Tracer, declaration: TS.Declaration, initializer: TS.Node | undefined, depth: number) {
  const symbol = (declaration as { symbol?: TS.Symbol }).symbol;
  const assigned = (symbol && t.ctx.flow.assigned.get(symbol)) ?? [];
  return union([
    initializer ? originsOf(t, initializer, depth) : new Set(),
    ...assigned.map((v) => originsOf(t, v, depth)),
  ]);
}

function identifierOrigins(t: Tracer, node: TS.Identifier, depth: number): Origins {
  const { ts, checker } = t.ctx;
  if (isLiteral(t.ctx, node)) return new Set();
  const symbol = ts.isShorthandPropertyAssignment(node.parent)
    ? checker.getShorthandAssignmentValueSymbol(node.parent)
    : checker.getSymbolAtLocation(node);
  const declaration = ownDeclaration(t.ctx, symbol);
  if (!declaration) return undefined;
  if (ts.isVariableDeclaration(declaration)) return variableOrigins(t, declaration, depth);
  if (ts.isBindingElement(declaration)) return bindingOrigins(t, declaration, depth);
  if (ts.isParameter(declaration)) return parameterOrigins(t, declaration, depth);
  if (ts.isPropertyDeclaration(declaration)) return storedOrigins(t, declaration, declaration.initializer, depth);
  return undefined;
}

function variableOrigins(t: Tracer, declaration: TS.VariableDeclaration, depth: number): Origins {
  const { ts } = t.ctx;
  const list = declaration.parent;
  const statement = list.parent;
  // `for (const x of xs)`: an element of xs.
  if (ts.isForOfStatement(statement)) return originsOf(t, statement.expression, depth);
  if (ts.isForInStatement(statement)) return new Set();
  if (ts.isCatchClause(list)) return thrownIn(t, list.parent.tryBlock);
  return storedOrigins(t, declaration, declaration.initializer, depth);
}

/** A destructured name: a part of whatever the pattern it stands in destructures. */
function bindingOrigins(t: Tracer, element: TS.BindingElement, depth: number): Origins {
  const { ts } = t.ctx;
  const holder = element.parent.parent;
  const own = element.initializer ? [originsOf(t, element.initializer, depth)] : [];
  const entry = ts.isVariableDeclaration(holder) ? tupleEntry(t, element, holder.initializer) : undefined;
  if (entry) return union([originsOf(t, entry, depth), ...own]);
  if (ts.isBindingElement(holder)) return union([bindingOrigins(t, holder, depth), ...own]);
  if (ts.isVariableDeclaration(holder)) return union([variableOrigins(t, holder, depth), ...own]);
  if (ts.isParameter(holder)) return union([parameterOrigins(t, holder, depth), ...own]);
  return undefined;
}

/** `const [a, b] = await Promise.all([x, y])`: the entry of the array that `a` (or `b`) takes. */
function tupleEntry(t: Tracer, element: TS.BindingElement, initializer: TS.Expression | undefined) {
  const { ts } = t.ctx;
  if (!ts.isArrayBindingPattern(element.parent) || !initializer) return undefined;
  let source = initializer;
  while (ts.isAwaitExpression(source) || ts.isParenthesizedExpression(source)) source = source.expression;
  const all =
    ts.isCallExpression(source) &&
    ts.isPropertyAccessExpression(source.expression) &&
    source.expression.getText() === 'Promise.all'
      ? source.arguments[0]
      : source;
  if (!all || !ts.isArrayLiteralExpression(all) || all.elements.some(ts.isSpreadElement)) return undefined;
  return all.elements[element.parent.elements.indexOf(element)];
}

/** The operation calls in a try block, and in the project's functions it calls: what its catch clause catches. */
function thrownIn(t: Tracer, block: TS.Block): Origins {
  const found = new Set<Origin>();
  const seen = new Set<TS.Node>();
  const visit = (node: TS.Node): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const call = t.calls.get(node);
    if (call) found.add(call);
    if (t.ctx.ts.isCallExpression(node)) {
      const declaration = t.ctx.checker.getResolvedSignature(node)?.declaration;
      if (declaration && !declaration.getSourceFile().isDeclarationFile) visit(declaration);
    }
    t.ctx.ts.forEachChild(node, visit);
  };
  visit(block);
  return found.size ? found : undefined;
}

/**
 * A parameter: a webhook handler's delivery; a callback's argument, given by the array or promise it is called
 * on; or a project function's argument, from each of its calls, when every call is one the walk saw.
 */
function parameterOrigins(t: Tracer, parameter: TS.ParameterDeclaration, depth: number): Origins {
  const { ts } = t.ctx;
  const fn = parameter.parent;
  const handler = t.handlers.get(fn) ?? t.handlers.get(fn.parent);
  if (handler) return new Set([handler]);
  const own = parameter.initializer ? [originsOf(t, parameter.initializer, depth)] : [];
  const carrier = fn.parent;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isCallExpression(carrier)) {
    const callee = carrier.expression;
    // An element (or the accumulator, or the settled value) of what the method is called on or is given.
    if (ts.isPropertyAccessExpression(callee) && !ownDeclaration(t.ctx, t.ctx.checker.getSymbolAtLocation(callee.name)))
      return union([
        originsOf(t, callee.expression, depth),
        ...carrier.arguments.map((a) => argumentOrigins(t, a, false, depth)),
        ...own,
      ]);
  }
  if (isPassedAsValue(t.ctx, fn) || mayBeCalledThroughAnotherType(t.ctx, fn)) return undefined;
  const calls = t.ctx.flow.callsOf.get(fn);
  if (!calls?.length) return undefined;
  const index = fn.parameters.indexOf(parameter);
  const rest = Boolean(parameter.dotDotDotToken);
  // After a spread argument, positions no longer match parameters: every argument may be this one.
  const argumentsOf = (call: TS.CallExpression) =>
    call.arguments.some(ts.isSpreadElement)
      ? [...call.arguments]
      : rest
        ? call.arguments.slice(index)
        : [call.arguments[index]];
  return union([...own, ...calls.flatMap(argumentsOf).map((a) => (a ? originsOf(t, a, depth) : new Set<Origin>()))]);
}

/**
 * A method of a class that implements an interface or extends a class: calls through the other type resolve to
 * that type's declaration, so the calls recorded for this one may not be all of them.
 */
function mayBeCalledThroughAnotherType(ctx: Context, fn: TS.SignatureDeclaration): boolean {
  const { ts } = ctx;
  const owner = ts.isMethodDeclaration(fn)
    ? fn.parent
    : ts.isPropertyDeclaration(fn.parent)
      ? fn.parent.parent
      : undefined;
  return Boolean(owner && ts.isClassLike(owner) && owner.heritageClauses?.length);
}

/** A call: an operation's answer, what ramp-api's helpers pass on, a method's receiver, or a function's returns. */
function callOrigins(t: Tracer, call: TS.CallExpression, depth: number): Origins {
  const { ts, checker } = t.ctx;
  const found = t.calls.get(call);
  if (found) return new Set([found]);
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  const declaration = checker.getResolvedSignature(call)?.declaration;
  const own = declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : undefined;
  const args = (callbacks: boolean) => call.arguments.map((a) => argumentOrigins(t, a, callbacks, depth));
  if (own) return returnsOf(t, own, depth);
  if (name && PASS_THROUGH.has(name.text) && /[/\\]ramp-api[/\\]|[/\\]src[/\\]client[/\\]/.test(fileOf(declaration)))
    return union(args(false));
  if (ts.isPropertyAccessExpression(callee)) {
    const receiver = callee.expression;
    if (ts.isIdentifier(receiver) && receiver.text === 'Promise' && PROMISE_COMBINERS.has(callee.name.text))
      return union(args(false));
    if (isContainerMethod(t.ctx, declaration)) {
      const method = callee.name.text;
      const mapped =
        MAPPING.has(method) && call.arguments.some((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (mapped) return union(args(true));
      return union([originsOf(t, receiver, depth), ...args(RECOVERING.has(method))]);
    }
  }
  return undefined;
}

const fileOf = (declaration: TS.Node | undefined) => declaration?.getSourceFile().fileName ?? '';

/** A method of an array, a promise, a set or a map, as TypeScript's lib files declare them. */
function isContainerMethod(ctx: Context, declaration: TS.Node | undefined): boolean {
  const holder = declaration?.parent;
  if (!holder || !ctx.ts.isInterfaceDeclaration(holder)) return false;
  return (
    /[/\\]lib\.[^/\\]*\.d\.ts$/.test(fileOf(declaration)) &&
    /^(ReadonlyArray|Array|Promise|Set|ReadonlySet|Map|ReadonlyMap|Iterator|IteratorObject)$/.test(holder.name.text)
  );
}

/** An argument: a callback gives what it returns where `callbacks` says its result is kept; any other value, itself. */
function argumentOrigins(t: Tracer, argument: TS.Expression, callbacks: boolean, depth: number): Origins {
  const { ts } = t.ctx;
  if (ts.isArrowFunction(argument) || ts.isFunctionExpression(argument))
    return callbacks ? returnsOf(t, argument, depth) : new Set();
  return originsOf(t, argument, depth);
}

/** What a project function returns: each `return`'s value, or an arrow function's expression. */
function returnsOf(t: Tracer, fn: TS.Node, depth: number): Origins {
  const { ts } = t.ctx;
  const body = (fn as { body?: TS.Node }).body;
  if (!body || (fn as { asteriskToken?: TS.Node }).asteriskToken) return undefined;
  if (!ts.isBlock(body)) return originsOf(t, body, depth);
  const values: Origins[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isReturnStatement(node)) values.push(node.expression ? originsOf(t, node.expression, depth) : new Set());
    else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  visit(body);
  return union(values);
}
