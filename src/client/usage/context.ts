// What the extractor's visitors share during one run: the compiler API of the analyzer, the type checker, the
// project's folder, the bundles, and what has been found so far.
import { relative } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { type FamilyBundle, packageRootOf } from './bundles.js';
import { type Place, placeOf } from './generated-place.js';

export interface CallFound {
  family: string;
  operationId: string;
  site: string;
  /** The call itself: the origin of the answers that flow from it. */
  node: TS.CallExpression;
  /** The function (or file) the call is in: where its statuses are looked for when their flow cannot be followed. */
  scope: TS.Node;
  parameters: string[];
  requestFields: { pointer: string; site: string }[];
  /** The parts of the request body built where the extractor cannot follow them: why, and where they go. */
  dynamic: { reason: string; pointer?: string }[];
}

export interface ReadFound {
  family: string;
  pointer: string;
  site: string;
  whole: boolean;
  node: TS.Node;
  /** The value read from (the object of `a.b`, the destructured element): its origins are the read's. */
  from: TS.Node;
}

/** A field read on a value whose type is a type parameter: resolved through each instantiation of its function. */
export interface GenericReadFound {
  parameter: TS.TypeParameter;
  name: string;
  site: string;
  node: TS.Node;
  from: TS.Node;
}

/** `e.body` of a ramp-api ApiError: the error answer of the calls `e` comes from, used whole (typed `unknown`). */
interface ErrorBodyFound {
  site: string;
  node: TS.Node;
  from: TS.Node;
}

/** A status the code tells apart (`x.status === 404`), with the value whose status it is. */
interface StatusFound {
  scope: TS.Node;
  status: string;
  /** The value compared (a fetch Response, an ApiError): its origins are the calls the status belongs to. */
  holder: TS.Expression;
}

/**
 * What the walk learns about how values move through the project, for following an answer to its reads: each
 * project function's calls, the functions also used as values (called from code the walk cannot see), and the
 * values assigned to each variable or property after its declaration.
 */
interface FlowIndex {
  callsOf: Map<TS.Node, TS.CallExpression[]>;
  /** The names handed on as values (`list.map(format)`, `{ onPaid: pay }`), by their text: see isPassedAsValue. */
  handedOn: Map<string, (TS.Identifier | TS.PropertyAccessExpression)[]>;
  assigned: Map<TS.Symbol, TS.Expression[]>;
}

export interface HandlerFound {
  family: string;
  event: string;
  site: string;
  handler: TS.Node;
}

export interface Context {
  ts: typeof TS;
  checker: TS.TypeChecker;
  projectDir: string;
  bundle: (family: string, fileName: string) => FamilyBundle | undefined;
  /** Each family's bundle, once the code has met one of its generated types. */
  families: Map<string, FamilyBundle>;
  calls: CallFound[];
  reads: ReadFound[];
  handlers: HandlerFound[];
  statuses: StatusFound[];
  genericReads: GenericReadFound[];
  errorBodies: ErrorBodyFound[];
  flow: FlowIndex;
  /** Where each type met so far is declared in the descriptions (visit-reads.ts typePlaces), kept for the run. */
  typePlaces: Map<TS.Type, (Place | undefined)[]>;
  /** The project's own source files. */
  files: TS.SourceFile[];
}

export function createContext(
  ts: typeof TS,
  checker: TS.TypeChecker,
  projectDir: string,
  load: (packageRoot: string, family: string) => FamilyBundle | undefined,
): Context {
  const families = new Map<string, FamilyBundle>();
  // The package folder of each declaration file met, looked up on disk once for the run.
  const roots = new Map<string, string | undefined>();
  const rootOf = (fileName: string) => {
    if (!roots.has(fileName)) roots.set(fileName, packageRootOf(fileName));
    return roots.get(fileName);
  };
  const bundle = (family: string, fileName: string) => {
    const root = rootOf(fileName);
    const found = root === undefined ? undefined : load(root, family);
    if (found) families.set(family, found);
    return found;
  };
  const flow: FlowIndex = { callsOf: new Map(), handedOn: new Map(), assigned: new Map() };
  return {
    ts,
    checker,
    projectDir,
    bundle,
    families,
    calls: [],
    reads: [],
    handlers: [],
    statuses: [],
    genericReads: [],
    errorBodies: [],
    flow,
    typePlaces: new Map(),
    files: [],
  };
}

/** `src/file.ts:12`: where a node starts, relative to the project. */
export function siteOf(ctx: Context, node: TS.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${relative(ctx.projectDir, file.fileName).split('\\').join('/')}:${line + 1}`;
}

/** Where a declaration stands in the descriptions, if it is one of the generated types'. */
export const placeOfDeclaration = (ctx: Context, node: TS.Node, accessed?: string): Place | undefined =>
  placeOf(ctx.ts, node, ctx.bundle, accessed);

/** The function (or, outside any, the file) that holds `node`. */
export function scopeOf(ctx: Context, node: TS.Node): TS.Node {
  let at: TS.Node | undefined = node.parent;
  while (at && !ctx.ts.isFunctionLike(at) && !ctx.ts.isSourceFile(at)) at = at.parent;
  return at ?? node.getSourceFile();
}

/** Whether a type is a primitive's (or a union of them): no field of an answer can be read from such a value. */
export function isPrimitive(ctx: Context, type: TS.Type): boolean {
  const { ts } = ctx;
  const flat =
    ts.TypeFlags.StringLike |
    ts.TypeFlags.NumberLike |
    ts.TypeFlags.BooleanLike |
    ts.TypeFlags.BigIntLike |
    ts.TypeFlags.ESSymbolLike |
    ts.TypeFlags.VoidLike |
    ts.TypeFlags.Null;
  return (type.isUnion() ? type.types : [type]).every((member) => (member.flags & flat) !== 0);
}

/** A call of `operationId` made at `call`, with nothing of its request found yet. */
export const newCall = (ctx: Context, family: string, operationId: string, call: TS.CallExpression): CallFound => ({
  family,
  operationId,
  site: siteOf(ctx, call),
  node: call,
  scope: scopeOf(ctx, call),
  parameters: [],
  requestFields: [],
  dynamic: [],
});

/** An expression that passes on the value it wraps: parentheses, a cast, `satisfies`, `!` or `await`. */
export function isWrapping(
  ts: typeof TS,
  node: TS.Node,
): node is
  | TS.ParenthesizedExpression
  | TS.AsExpression
  | TS.SatisfiesExpression
  | TS.NonNullExpression
  | TS.TypeAssertion
  | TS.AwaitExpression {
  return (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isTypeAssertionExpression(node) ||
    ts.isAwaitExpression(node)
  );
}
