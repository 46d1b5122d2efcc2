// A TypeScript sample per operation, built from the description's own examples, showing the call with the
// generated client. The same text is compiled by tsc (src/generated/samples/) and shown in the docs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, type OpenApiDocument } from './apis.js';
import { listOperations, type OperationEntry } from './openapi-lookup.js';
import { bodyExamples, validRequest } from '../../contract-tests/requests.js';
import { envPrefix } from '../../contract-tests/targets.js';

export interface ClientOf {
  /** The factory, a named export of `from`. */
  create: string;
  /** The package entry point that exports it, as a consumer imports it. */
  from: string;
  variable: string;
}

/** Each API's own client: what the samples call and the landing page names. */
const FACTORY: Record<string, ClientOf> = {
  business: { create: 'createBusinessClient', from: 'ramp-api', variable: 'business' },
  v1: { create: 'createV1Client', from: 'ramp-api', variable: 'v1' },
  sandbox: { create: 'createSandboxClient', from: 'ramp-api/sandbox', variable: 'sandbox' },
};

export function clientOf(family: string): ClientOf {
  const f = FACTORY[family];
  if (!f) throw new Error(`No client factory known for API family "${family}"`);
  return f;
}

/**
 * The source file behind a package entry point (`ramp-api/sandbox` to `<repo>/src/sandbox/index.ts`), read from
 * the package's `exports` (`./dist/lib/<x>.js` is compiled from `src/<x>.ts`).
 */
export function sourceModule(specifier: string): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { default?: string } | string> };
  const subpath = specifier === pkg.name ? '.' : specifier.startsWith(`${pkg.name}/`) ? `.${specifier.slice(pkg.name.length)}` : undefined;
  const target = subpath === undefined ? undefined : pkg.exports[subpath];
  const file = typeof target === 'object' ? target.default : target;
  const compiled = file && /^\.\/dist\/lib\/(.+)\.js$/.exec(file);
  if (!compiled) throw new Error(`${specifier} is not an entry point of ${pkg.name} compiled from src/ (package.json exports).`);
  return join(repoRoot, 'src', `${compiled[1]}.ts`);
}

function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2)
    .replace(/"([A-Za-z_$][A-Za-z0-9_$]*)":/g, '$1:')
    .replace(/"/g, "'")
    .split('\n')
    .join(`\n${indent}`);
}

const factory = clientOf;

/** The statements of one operation's sample (no import line). */
export function sampleBody(family: string, doc: OpenApiDocument, entry: OperationEntry): string {
  const { create, variable } = factory(family);
  const env = envPrefix(family); // BUSINESS_API_, V1_API_: the variables the README and the contract suite use
  const secured = entry.operation.security?.length !== 0;
  const init = validRequest(doc, entry);
  const params = Object.fromEntries(Object.entries(init.params).filter(([, values]) => Object.keys(values).length > 0));
  const args: string[] = [];
  if (Object.keys(params).length) args.push(`params: ${literal(params, '    ')}`);
  if (entry.operation.requestBody) args.push(`body: ${literal(bodyExamples(doc, entry)[0]?.[1] ?? {}, '    ')}`);
  // The control API's security is the sandbox's admin token (when it runs with one), not a token call.
  const auth = !secured ? '' : family === 'sandbox' ? '\n  adminToken: process.env.SANDBOX_ADMIN_TOKEN,' : `\n  auth: { credentials: JSON.parse(process.env.${env}CREDENTIALS ?? '{}') },`;
  const call = args.length ? `${variable}.${entry.operationId}({\n    ${args.join(',\n    ')},\n  })` : `${variable}.${entry.operationId}()`;
  return [
    `const ${variable} = ${create}({\n  baseUrl: process.env.${env}URL ?? 'http://127.0.0.1:4010',${auth}\n});`,
    '',
    `// Throws ApiError (operationId, status, parsed body) unless the answer is a documented success.`,
    `const result = await orThrow(\n  ${call},\n);`,
    'console.log(result);',
  ].join('\n');
}

export function sampleImport(family: string, from = 'ramp-api'): string {
  return `import { ${factory(family).create}, orThrow } from '${from}';`;
}

/** What the docs show for an operation. */
export function sampleForDocs(family: string, doc: OpenApiDocument, entry: OperationEntry): string {
  return `${sampleImport(family)}\n\n${sampleBody(family, doc, entry)}\n`;
}

/** One module per family holding every sample as a function, for tsc to compile against src/. */
export function samplesModule(family: string, doc: OpenApiDocument, header: string): string {
  const functions = listOperations(doc).map((entry) => {
    const body = sampleBody(family, doc, entry).split('\n').map((line) => (line ? `  ${line}` : line)).join('\n');
    return `export async function ${entry.operationId}Sample(): Promise<void> {\n${body}\n}\n`;
  });
  return `${header}${sampleImport(family, '../../index.js')}\n\n${functions.join('\n')}`;
}
