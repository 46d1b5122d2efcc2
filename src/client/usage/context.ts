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
  /** The function (or file) the call is in: the statuses told apart there are the call's. */
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
  statuses: { scope: TS.Node; status: string }[];
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
  const bundle = (family: string, fileName: string) => {
    const root = packageRootOf(fileName);
    const found = root === undefined ? undefined : load(root, family);
    if (found) families.set(family, found);
    return found;
  };
  return { ts, checker, projectDir, bundle, families, calls: [], reads: [], handlers: [], statuses: [], files: [] };
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
