// The length of every function in the repository's TypeScript (src/ and scripts/), measured with the TypeScript
// compiler's parser: from the line its declaration starts on to the line it ends on, comments and blank lines
// included, as a reader scrolls it. A component that returns JSX counts like any other function.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../openapi/apis.js';

/** The longest a function may be, in lines. */
export const MAX_FUNCTION_LINES = 120;

export interface FunctionLength {
  /** `path:line` of the function's first line, relative to the repository. */
  at: string;
  /** The function's name, or what it is assigned to or passed to (`describe callback`). */
  name: string;
  lines: number;
}

/** Folders never measured: installed, built or generated code, and the fixtures tests copy. */
const SKIPPED = /(^|\/)(node_modules|dist|generated|fixtures)(\/|$)/;

/** Every .ts and .tsx file under `dirs` (relative to the repository), but those under SKIPPED folders. */
export function sourceFiles(dirs: string[] = ['src', 'scripts']): string[] {
  return dirs.flatMap((dir) =>
    (readdirSync(join(repoRoot, dir), { recursive: true }) as string[])
      .map((file) => join(dir, file))
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !SKIPPED.test(file)),
  );
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).slice(0, 40)} callback`;
  return '(anonymous)';
}

/** Every function of `file` (relative to the repository) with its length in lines. */
export function functionLengths(file: string): FunctionLength[] {
  return measureFunctions(file, readFileSync(join(repoRoot, file), 'utf8'));
}

/** Every function of `text`, the source of `file`, with its length in lines. */
export function measureFunctions(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ at: `${relative('.', file)}:${first + 1}`, name: nameOf(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function longer than `max` lines in `files`, longest first. */
export function longFunctions(files = sourceFiles(), max = MAX_FUNCTION_LINES): FunctionLength[] {
  return files
    .flatMap(functionLengths)
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === import.meta.filename) {
  const max = Number(process.argv[2] ?? MAX_FUNCTION_LINES);
  for (const f of longFunctions(sourceFiles(), max)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.at}`);
}
