// Reads a consuming project through its tsconfig.json with ts-morph (the TypeScript compiler API, which the native
// TypeScript 7 compiler does not offer) and assembles its usage file.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import type * as Morph from 'ts-morph';
import { assembleUsage } from './assemble.js';
import { bundleLoader, type FamilyBundle } from './bundles.js';
import { type Context, createContext } from './context.js';
import { MissingPeerError, NoTsconfigError, ProjectCompileError, UsageError } from './errors.js';
import { indexFlow } from './flow-index.js';
import { parseJson } from './json-text.js';
import type { UsageFile } from './usage-file.js';
import { visitCall, visitHandlers } from './visit-calls.js';
import { visitRead } from './visit-reads.js';

/** The version of ts-morph this package is tested with (also its peer dependency's lower bound). */
const TS_MORPH_VERSION = '28.0.0';

const missingAnalyzer = () =>
  new MissingPeerError(
    `Reading a project's usage needs the analyzer ts-morph: run \`npm i -D ts-morph@${TS_MORPH_VERSION}\`.`,
  );

/** Finds the analyzer without loading it (loading it is not instant: see extractUsage). */
function findAnalyzer(): void {
  try {
    createRequire(import.meta.url).resolve('ts-morph');
  } catch {
    throw missingAnalyzer();
  }
}

async function loadAnalyzer(): Promise<typeof Morph> {
  try {
    return await import('ts-morph');
  } catch {
    throw missingAnalyzer();
  }
}

export interface ExtractOptions {
  /** The project's folder (its tsconfig.json and package.json). */
  projectDir: string;
  /** The consumer's name; default: the project's package.json `name`. */
  name?: string;
  /**
   * For several projects read in one process (a provider's consumers): one object given to each call, and the
   * declaration files they have in common (TypeScript's lib files, @types, ramp-api's types) are parsed and bound
   * once, by TypeScript's document registry, as an editor shares them between the projects it has open. A
   * declaration file is taken as the first call parsed it: they must not change between the calls.
   */
  shared?: SharedDeclarations;
}

/** What the projects read with one `shared` object have in common; made empty by the caller (`{}`). */
interface SharedDeclarations {
  registry?: Morph.ts.DocumentRegistry;
}

/** The JSDoc tsc parses in a TypeScript file: only comments that can make a type error (@see, @link). */
const jsDocParsing = (ts: typeof Morph.ts) => ts.JSDocParsingMode.ParseForTypeErrors;

function consumerName(projectDir: string, name: string | undefined): string {
  if (name) return name;
  const manifest = join(projectDir, 'package.json');
  const refuse = (problem: string) => new UsageError(`${manifest} is ${problem}: pass --name NAME, or mend it.`);
  const found = existsSync(manifest)
    ? (parseJson(readFileSync(manifest, 'utf8'), refuse) as { name?: unknown } | null)?.name
    : undefined;
  if (typeof found === 'string' && found) return found;
  throw new UsageError(`${manifest} gives no name: pass --name NAME.`);
}

/** The project's own source files (not declarations, not under node_modules, not outside the project). */
function ownFiles(program: Morph.ts.Program, projectDir: string): Morph.ts.SourceFile[] {
  return program.getSourceFiles().filter((file) => {
    const path = relative(projectDir, file.fileName);
    return !file.isDeclarationFile && !path.startsWith('..') && !/(^|[/\\])node_modules[/\\]/.test(path);
  });
}

/** The first error the type checker finds in the project, as `file:line message`. */
function firstError(morph: typeof Morph, program: Morph.ts.Program, projectDir: string): string | undefined {
  const { ts } = morph;
  const diagnostic = ts.getPreEmitDiagnostics(program).find((d) => d.category === ts.DiagnosticCategory.Error);
  if (!diagnostic) return undefined;
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${relative(projectDir, diagnostic.file.fileName)}:${line + 1} ${message}`;
}

/** Where ts-morph serves the lib files of the TypeScript it carries (held in memory, not on disk). */
const MORPH_LIB_FOLDER = '/node_modules/typescript/lib';

/**
 * A compiler host of the TypeScript inside ts-morph that reads the project from disk and the lib files from
 * ts-morph. Not ts-morph's own Project: it does not read a package.json's `"type": "module"` under NodeNext
 * (ts-morph issue 1446), so an ES module's `import.meta` would be taken for an error.
 */
function compilerHost(
  morph: typeof Morph,
  options: Morph.ts.CompilerOptions,
  registry: Morph.ts.DocumentRegistry | undefined,
): Morph.ts.CompilerHost {
  const { ts } = morph;
  const libs = new morph.Project({
    compilerOptions: options,
    skipAddingFilesFromTsConfig: true,
  }).getModuleResolutionHost();
  if (!libs.fileExists(`${MORPH_LIB_FOLDER}/lib.d.ts`))
    throw new UsageError(
      `This ts-morph keeps its lib files elsewhere than ${MORPH_LIB_FOLDER}: install ts-morph@${TS_MORPH_VERSION}.`,
    );
  const isLib = (file: string) => file.startsWith(`${MORPH_LIB_FOLDER}/`);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  const read = (file: string) => (isLib(file) ? libs.readFile(file) : readFile.call(host, file));
  /** A declaration file from the registry: parsed and bound once for every project that has it. */
  const shared =
    registry &&
    ((file: string, format: Morph.ts.CreateSourceFileOptions | Morph.ts.ScriptTarget) => {
      const text = read(file);
      if (text === undefined) return undefined;
      return registry.acquireDocument(file, options, ts.ScriptSnapshot.fromString(text), '1', undefined, format);
    });
  return Object.assign(host, {
    // The declarations' long descriptions are not parsed, which the extractor never reads: what tsc does.
    jsDocParsingMode: jsDocParsing(ts),
    getDefaultLibLocation: () => MORPH_LIB_FOLDER,
    getDefaultLibFileName: (o: Morph.ts.CompilerOptions) => `${MORPH_LIB_FOLDER}/${ts.getDefaultLibFileName(o)}`,
    fileExists: (file: string) => (isLib(file) ? libs.fileExists(file) : fileExists.call(host, file)),
    readFile: read,
    getSourceFile: (
      file: string,
      ...rest: Parameters<Morph.ts.CompilerHost['getSourceFile']> extends [string, ...infer R] ? R : never
    ) => {
      if (shared && /\.d\.[cm]?ts$/.test(file)) return shared(file, rest[0]);
      return isLib(file)
        ? ts.createSourceFile(file, libs.readFile(file) ?? '', rest[0])
        : getSourceFile.call(host, file, ...rest);
    },
  });
}

/** The project's program, from its tsconfig.json. */
function createProgram(
  morph: typeof Morph,
  tsconfig: string,
  registry: Morph.ts.DocumentRegistry | undefined,
): Morph.ts.Program {
  const { ts } = morph;
  const unreadable = (diagnostic: Morph.ts.Diagnostic) => {
    throw new ProjectCompileError(`${tsconfig}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
  };
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: unreadable },
  );
  if (!config) throw new ProjectCompileError(`${tsconfig} cannot be read.`);
  const [error] = config.errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (error) unreadable(error);
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences ?? [],
    host: compilerHost(morph, config.options, registry),
  });
}

function walk(ctx: Context, node: Morph.ts.Node): void {
  const { ts } = ctx;
  indexFlow(ctx, node);
  if (ts.isCallExpression(node)) visitCall(ctx, node);
  if (ts.isObjectLiteralExpression(node)) visitHandlers(ctx, node);
  visitRead(ctx, node);
  ts.forEachChild(node, (child) => walk(ctx, child));
}

export interface Extracted {
  usage: UsageFile;
  /** The bundles of the families the project uses, as the ramp-api it was built against ships them. */
  families: Map<string, FamilyBundle>;
}

/** The usage of one consuming project. */
export async function extractUsage(options: ExtractOptions): Promise<Extracted> {
  // First: without the analyzer nothing else can be done, and the one line says what to install. It is loaded
  // after the checks that take no time, so that a missing tsconfig.json or name is said at once.
  findAnalyzer();
  const projectDir = resolve(options.projectDir);
  const tsconfig = join(projectDir, 'tsconfig.json');
  if (!existsSync(tsconfig)) throw new NoTsconfigError(`No tsconfig.json in ${projectDir}.`);
  const consumer = consumerName(projectDir, options.name);
  const morph = await loadAnalyzer();
  const { shared } = options;
  if (shared) shared.registry ??= morph.ts.createDocumentRegistry(undefined, undefined, jsDocParsing(morph.ts));
  const program = createProgram(morph, tsconfig, shared?.registry);
  const error = firstError(morph, program, projectDir);
  if (error) throw new ProjectCompileError(`The project ${projectDir} does not compile: ${error}`);
  const ctx = createContext(morph.ts, program.getTypeChecker(), projectDir, bundleLoader());
  ctx.files.push(...ownFiles(program, projectDir));
  for (const file of ctx.files) walk(ctx, file);
  return { usage: assembleUsage(ctx, consumer), families: ctx.families };
}
