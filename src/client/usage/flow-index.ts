// What the walk records, node by node, so that an answer can later be followed to where it is read: which calls
// each of the project's functions has, which of them are also handed on as values (and so called from code the
// walk cannot see), and what is assigned to a variable or property after its declaration (`x = v`,
// `this.items = v`, `list.push(v)`).
import type { ts as TS } from 'ts-morph';
import type { Context } from './context.js';

/** Array, Set and Map methods that put their arguments into the value they are called on. */
const FILLING = new Set(['push', 'unshift', 'splice', 'set', 'add', 'fill']);
const ASSIGNING = new Set(['=', '??=', '||=', '&&=']);
const BORROWED = new Set(['call', 'apply', 'bind']);

/** The project's own declaration of a symbol (through an import), or undefined for one outside the project. */
export function ownDeclaration(ctx: Context, symbol: TS.Symbol | undefined): TS.Declaration | undefined {
  const { ts, checker } = ctx;
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target?.valueDeclaration ?? target?.declarations?.[0];
  return declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : undefined;
}

/** The function a declaration stands for: itself, or the function a variable or property is initialised with. */
function functionOf(ctx: Context, declaration: TS.Node | undefined): TS.SignatureDeclaration | undefined {
  const { ts } = ctx;
  if (!declaration) return undefined;
  if (ts.isFunctionLike(declaration)) return declaration;
  if ((ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)) && declaration.initializer) {
    const value = declaration.initializer;
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return value;
  }
  return undefined;
}

/** The symbol a target of an assignment or of a filling call names (`x`, `this.items`, `a.b`). */
function targetSymbol(ctx: Context, target: TS.Expression): TS.Symbol | undefined {
  const { ts, checker } = ctx;
  if (ts.isIdentifier(target)) return checker.getSymbolAtLocation(target);
  // A field an index signature stands for has no symbol of its own: the value joins what the container holds.
  if (ts.isPropertyAccessExpression(target))
    return checker.getSymbolAtLocation(target.name) ?? targetSymbol(ctx, target.expression);
  // `byId[key] = v`: the value joins what the container holds.
  if (ts.isElementAccessExpression(target)) return targetSymbol(ctx, target.expression);
  return undefined;
}

/** The names a destructuring assignment's pattern assigns (`({ data, error } = v)`, `[a, b] = v`). */
function patternTargets(ctx: Context, pattern: TS.Expression): TS.Expression[] {
  const { ts } = ctx;
  if (ts.isArrayLiteralExpression(pattern)) return pattern.elements.flatMap((e) => patternTargets(ctx, e));
  if (ts.isSpreadElement(pattern)) return patternTargets(ctx, pattern.expression);
  if (ts.isBinaryExpression(pattern)) return patternTargets(ctx, pattern.left);
  if (!ts.isObjectLiteralExpression(pattern)) return [pattern];
  return pattern.properties.flatMap((p) => {
    if (ts.isShorthandPropertyAssignment(p)) return [p.name];
    if (ts.isPropertyAssignment(p)) return patternTargets(ctx, p.initializer);
    return ts.isSpreadAssignment(p) ? patternTargets(ctx, p.expression) : [];
  });
}

function addAssigned(ctx: Context, target: TS.Expression, values: readonly TS.Expression[]): void {
  const { ts } = ctx;
  if (ts.isObjectLiteralExpression(target) || ts.isArrayLiteralExpression(target)) {
    for (const name of patternTargets(ctx, target)) addAssigned(ctx, name, values);
    return;
  }
  const symbol = targetSymbol(ctx, target);
  if (!symbol || !values.length) return;
  const list = ctx.flow.assigned.get(symbol) ?? [];
  list.push(...values);
  ctx.flow.assigned.set(symbol, list);
}

/** A call of a project function: recorded under that function; a filling call: its arguments under its target. */
function indexCall(ctx: Context, call: TS.CallExpression | TS.NewExpression): void {
  const { ts, checker } = ctx;
  const declaration = checker.getResolvedSignature(call)?.declaration;
  if (declaration && !declaration.getSourceFile().isDeclarationFile && ts.isCallExpression(call)) {
    const calls = ctx.flow.callsOf.get(declaration) ?? [];
    calls.push(call);
    ctx.flow.callsOf.set(declaration, calls);
  }
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && FILLING.has(callee.name.text))
    addAssigned(ctx, callee.expression, call.arguments ?? []);
}

/** Whether an expression stands where its value is handed on rather than called or merely read. */
function handedOn(ctx: Context, node: TS.Node): boolean {
  const { ts } = ctx;
  const parent = node.parent;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return parent.expression !== node;
  // `f.call(...)`, `f.apply(...)`, `f.bind(...)`: called from the lib's code.
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return BORROWED.has(parent.name.text);
  return (
    (ts.isPropertyAssignment(parent) && parent.initializer === node) ||
    ts.isShorthandPropertyAssignment(parent) ||
    ts.isArrayLiteralExpression(parent) ||
    ts.isReturnStatement(parent) ||
    (ts.isVariableDeclaration(parent) && parent.initializer === node) ||
    (ts.isBinaryExpression(parent) && parent.right === node) ||
    ts.isConditionalExpression(parent) ||
    ts.isArrowFunction(parent)
  );
}

/** A name handed on as a value: kept by its text, its symbol looked up only if a function of that name asks. */
function indexValue(ctx: Context, node: TS.Identifier | TS.PropertyAccessExpression): void {
  if (!handedOn(ctx, node)) return;
  const text = ctx.ts.isIdentifier(node) ? node.text : node.name.text;
  const list = ctx.flow.handedOn.get(text) ?? [];
  list.push(node);
  ctx.flow.handedOn.set(text, list);
}

/** Whether a project function is handed on as a value somewhere: then it may be called from code the walk cannot see. */
export function isPassedAsValue(ctx: Context, fn: TS.SignatureDeclaration): boolean {
  const { ts } = ctx;
  const holder = ts.isVariableDeclaration(fn.parent) || ts.isPropertyDeclaration(fn.parent) ? fn.parent : fn;
  const name = (holder as { name?: TS.Node }).name;
  if (!name || !(ts.isIdentifier(name) || ts.isPrivateIdentifier(name))) return false;
  return (ctx.flow.handedOn.get(name.text) ?? []).some((node) => {
    const at = ts.isIdentifier(node) ? node : node.name;
    return functionOf(ctx, ownDeclaration(ctx, ctx.checker.getSymbolAtLocation(at))) === fn;
  });
}

/** Records what `node` tells of the flow of values. */
export function indexFlow(ctx: Context, node: TS.Node): void {
  const { ts } = ctx;
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) indexCall(ctx, node);
  else if (ts.isBinaryExpression(node) && ASSIGNING.has(node.operatorToken.getText()))
    addAssigned(ctx, node.left, [node.right]);
  else if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) indexValue(ctx, node);
}
