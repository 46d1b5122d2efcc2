// A TypeScript sample per operation, built from the description's own examples, showing the call with the
// generated client. The same text is compiled by tsc (src/client/generated/samples/) and shown in the docs.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { listOperations, type OperationEntry } from '../../src/client/lookup/index.js';
import { envPrefix } from '../../src/sandbox/journeys/deployment.js';
import { allApiFamilies, type OpenApiDocument, readBundle, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { bodyExamples, validRequest } from '../openapi/requests.js';

/** The package's root entry point, which exports `orThrow`. */
const ROOT_ENTRY = 'ramp-api';

export interface ClientOf {
  /** The factory, a named export of `from`. */
  create: string;
  /** The package entry point that exports it, as a consumer imports it. */
  from: string;
  variable: string;
  /**
   * How the client authenticates: `credentials`, the body of the API's token call (the client fetches and renews
   * tokens), or `adminToken`, a token sent as it is.
   */
  auth: 'credentials' | 'adminToken';
  /** The environment variables a sample reads, named as the README and the guides name them. */
  env: { url: string; secret: string };
}

/**
 * Each API's own client: what the samples call and the landing page names. The Business and v1 samples read the
 * variables the guides and the contract suite use for a deployment (BUSINESS_API_URL, V1_API_CREDENTIALS, ...);
 * the sandbox's, those of the guides' sandbox examples and of its command (SANDBOX_URL, SANDBOX_ADMIN_TOKEN).
 */
const FACTORY: Record<string, ClientOf> = {
  business: {
    create: 'createBusinessClient',
    from: ROOT_ENTRY,
    variable: 'business',
    auth: 'credentials',
    env: { url: `${envPrefix('business')}URL`, secret: `${envPrefix('business')}CREDENTIALS` },
  },
  v1: {
    create: 'createV1Client',
    from: ROOT_ENTRY,
    variable: 'v1',
    auth: 'credentials',
    env: { url: `${envPrefix('v1')}URL`, secret: `${envPrefix('v1')}CREDENTIALS` },
  },
  [SANDBOX_FAMILY]: {
    create: 'createSandboxClient',
    from: `${ROOT_ENTRY}/sandbox`,
    variable: 'sandbox',
    auth: 'adminToken',
    env: { url: 'SANDBOX_URL', secret: 'SANDBOX_ADMIN_TOKEN' },
  },
};

export function clientOf(family: string): ClientOf {
  const f = FACTORY[family];
  if (!f) throw new Error(`No client factory known for API family "${family}"`);
  return f;
}

/**
 * The source file behind an entry point of the package ramp-api (`ramp-api/sandbox` to
 * `<repo>/src/client/sandbox/index.ts`), read from its `exports` (`./dist/lib/<x>.js` is compiled from `src/client/<x>.ts`).
 */
export function sourceModule(specifier: string): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'src', 'client', 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { default?: string } | string>;
  };
  const subpath =
    specifier === pkg.name
      ? '.'
      : specifier.startsWith(`${pkg.name}/`)
        ? `.${specifier.slice(pkg.name.length)}`
        : undefined;
  const target = subpath === undefined ? undefined : pkg.exports[subpath];
  const file = typeof target === 'object' ? target.default : target;
  const compiled = file && /^\.\/dist\/lib\/(.+)\.js$/.exec(file);
  if (!compiled)
    throw new Error(
      `${specifier} is not an entry point of ${pkg.name} compiled from src/client/ (its package.json exports).`,
    );
  return join(repoRoot, 'src', 'client', `${compiled[1]}.ts`);
}

/**
 * Where the samples call by default: the sandbox, at the address its description gives (the guides' too). The
 * pages `npm start` serves show the address it really started instead (./live-addresses.ts).
 */
export function defaultBaseUrl(): string {
  const sandbox = allApiFamilies().find((api) => api.name === SANDBOX_FAMILY);
  const url = sandbox && (readBundle(sandbox).servers as { url?: string }[] | undefined)?.[0]?.url;
  if (!url) throw new Error(`The ${SANDBOX_FAMILY} description gives no server address for the samples to call.`);
  return url;
}

function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2)
    .replace(/"([A-Za-z_$][A-Za-z0-9_$]*)":/g, '$1:')
    .replace(/"/g, "'")
    .split('\n')
    .join(`\n${indent}`);
}

/** The statements of one operation's sample (no import line). */
export function sampleBody(
  family: string,
  doc: OpenApiDocument,
  entry: OperationEntry,
  baseUrl = defaultBaseUrl(),
): string {
  const { create, variable, auth: kind, env } = clientOf(family);
  const secured = entry.operation.security?.length !== 0;
  const init = validRequest(doc, entry);
  const params = Object.fromEntries(Object.entries(init.params).filter(([, values]) => Object.keys(values).length > 0));
  const args: string[] = [];
  if (Object.keys(params).length) args.push(`params: ${literal(params, '    ')}`);
  if (entry.operation.requestBody) args.push(`body: ${literal(bodyExamples(doc, entry)[0]?.[1] ?? {}, '    ')}`);
  // The control API's security is the sandbox's admin token (when it runs with one), not a token call.
  const auth = !secured
    ? ''
    : kind === 'adminToken'
      ? `\n  adminToken: process.env.${env.secret},`
      : `\n  auth: { credentials: JSON.parse(process.env.${env.secret} ?? '{}') },`;
  const where =
    kind === 'adminToken'
      ? `// ${env.url}: the sandbox's address.${secured ? `\n// ${env.secret}: its admin token, if it was started with one.` : ''}`
      : `// ${env.url}: your deployment's address, else the sandbox's.${secured ? `\n// ${env.secret}: the token call's body as JSON (in the sandbox: a tenant's ${variable}Credentials).` : ''}`;
  const call = args.length
    ? `${variable}.${entry.operationId}({\n    ${args.join(',\n    ')},\n  })`
    : `${variable}.${entry.operationId}()`;
  return [
    where,
    `const ${variable} = ${create}({\n  baseUrl: process.env.${env.url} ?? '${baseUrl}',${auth}\n});`,
    '',
    `// Throws ApiError (operationId, status, parsed body) unless the answer is a documented success.`,
    `const result = await orThrow(\n  ${call},\n);`,
    'console.log(result);',
  ].join('\n');
}

/** The import lines of a family's samples; `resolve` maps each package entry point to the module to import. */
export function sampleImport(
  family: string,
  resolve: (specifier: string) => string = (specifier) => specifier,
): string {
  const { create, from } = clientOf(family);
  if (from === ROOT_ENTRY) return `import { ${create}, orThrow } from '${resolve(from)}';`;
  return `import { orThrow } from '${resolve(ROOT_ENTRY)}';\nimport { ${create} } from '${resolve(from)}';`;
}

/** What the docs show for an operation. */
export function sampleForDocs(family: string, doc: OpenApiDocument, entry: OperationEntry): string {
  return `${sampleImport(family)}\n\n${sampleBody(family, doc, entry)}\n`;
}

/** The folder of the compiled samples modules (src/client/generated/samples/). */
const samplesDir = join(repoRoot, 'src', 'client', 'generated', 'samples');

/** One module per family holding every sample as a function, for tsc to compile against src/. */
export function samplesModule(family: string, doc: OpenApiDocument, header: string): string {
  const baseUrl = defaultBaseUrl();
  const functions = listOperations(doc).map((entry) => {
    const body = sampleBody(family, doc, entry, baseUrl)
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n');
    return `export async function ${entry.operationId}Sample(): Promise<void> {\n${body}\n}\n`;
  });
  // The entry points' sources, as the package's exports map them, so tsc checks each import a sample shows.
  const fromSource = (specifier: string) => relative(samplesDir, sourceModule(specifier)).replace(/\.ts$/, '.js');
  return `${header}${sampleImport(family, fromSource)}\n\n${functions.join('\n')}`;
}
