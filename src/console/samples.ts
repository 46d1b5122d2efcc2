// The call as text: a TypeScript sample with the `ramp-api` client and a curl line, both built from the same
// request the console sends. Credentials and tokens are never in them: each reads an environment variable.
import type { Call } from './model.js';

/** How a family's client is made and authenticated, as scripts/site/samples.ts describes it for the docs. */
export interface ClientInfo {
  create: string;
  from: string;
  variable: string;
  auth: 'credentials' | 'adminToken';
  env: { url: string; secret: string };
  /** The family's token operation (`createToken`, `createClientToken`), for the families signed in with credentials. */
  token?: { operationId: string; method: string; path: string };
}

export interface SampleInput {
  client: ClientInfo;
  baseUrl: string;
  operationId: string;
  method: string;
  /** The path template (`/api/accounts/{clientId}`). */
  path: string;
  secured: boolean;
  /** Whether the console sends a token: an admin token for the control API only when one was given. */
  signed: boolean;
  takesBody: boolean;
  call: Call;
  /** Headers the console adds (Prism's `Prefer`). */
  extraHeaders: Record<string, string>;
  /** The body is the family's credentials (the token operation): the samples read them from the environment. */
  credentialsBody?: boolean;
  /** A token sent as it is instead of signing in (a mock, which takes any): not a secret. */
  fixedToken?: string;
}

const isIdentifier = (name: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);

/**
 * A string as TypeScript source, in single quotes: JSON's escapes (every control character, a carriage return
 * and a lone surrogate included), with the quotes swapped.
 */
const quoted = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;

/** A value as TypeScript source, indented; keys unquoted where they can be, strings in single quotes. */
function literal(value: unknown, indent: string): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, null, 2)
    .replace(/"((?:[^"\\]|\\.)*)"/g, (_, inner: string) => quoted(JSON.parse(`"${inner}"`) as string))
    .replace(/^(\s*)'([^']+)':/gm, (_, space: string, name: string) =>
      isIdentifier(name) ? `${space}${name}:` : `${space}'${name}':`,
    )
    .split('\n')
    .join(`\n${indent}`);
}

const plainHttpElsewhere = (baseUrl: string) => {
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' && !/^(127\.|localhost$|\[::1\]$)/.test(url.hostname);
  } catch {
    return false;
  }
};

export function typeScriptSample(input: SampleInput): string {
  const { client, call } = input;
  const lines: string[] = [`import { ${client.create} } from '${client.from}';`, ''];
  if (input.credentialsBody) lines.push(`// ${client.env.secret}: the body of ${input.operationId}, as JSON.`);
  const options = [`  baseUrl: ${literal(input.baseUrl, '')},`];
  if (input.secured && input.fixedToken) {
    lines.push('// A Prism mock checks only that a token is sent.');
    options.push(`  auth: { token: ${literal(input.fixedToken, '')} },`);
  } else if (input.secured && client.auth === 'credentials') {
    lines.push(`// ${client.env.secret}: the body of ${client.token?.operationId ?? 'the token call'}, as JSON.`);
    options.push(`  auth: { credentials: JSON.parse(process.env.${client.env.secret} ?? '{}') },`);
  } else if (input.signed) {
    lines.push(`// ${client.env.secret}: the sandbox's admin token.`);
    options.push(`  adminToken: process.env.${client.env.secret},`);
  }
  if (plainHttpElsewhere(input.baseUrl)) options.push('  allowInsecureHttp: true,');
  // The console sends each request once; the sample does the same.
  options.push('  retry: false,');
  lines.push(`const ${client.variable} = ${client.create}({`, ...options, '});', '');
  const params = Object.fromEntries(
    (['path', 'query', 'header'] as const)
      .filter((where) => Object.keys(call[where]).length > 0)
      .map((where) => [where, call[where]]),
  );
  const args: string[] = [];
  if (Object.keys(params).length) args.push(`  params: ${literal(params, '  ')},`);
  if (input.takesBody && input.credentialsBody)
    args.push(`  body: JSON.parse(process.env.${client.env.secret} ?? '{}'),`);
  else if (input.takesBody && call.body !== undefined) args.push(`  body: ${literal(call.body, '  ')},`);
  if (Object.keys(input.extraHeaders).length) args.push(`  headers: ${literal(input.extraHeaders, '  ')},`);
  const argument = args.length ? `{\n${args.join('\n')}\n}` : '';
  lines.push(
    `const { response, data, error } = await ${client.variable}.${input.operationId}(${argument});`,
    'console.log(response.status, JSON.stringify(data ?? error));',
  );
  return `${lines.join('\n')}\n`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The URL the request goes to: the path's parameters filled in, the query appended. */
export function requestUrl(baseUrl: string, path: string, call: Call): string {
  // A lone surrogate cannot be percent-encoded: U+FFFD is sent in its place, as a browser's URL would.
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent((call.path[name] ?? `{${name}}`).replace(LONE_SURROGATE, '\uFFFD')),
  );
  const query = new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)])).toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${query ? `?${query}` : ''}`;
}

/** The variable the curl line reads its access token from (`V1_API_TOKEN` beside `V1_API_CREDENTIALS`). */
const tokenVariableOf = (client: ClientInfo) =>
  client.auth === 'credentials' ? client.env.secret.replace(/CREDENTIALS$/, 'TOKEN') : client.env.secret;

/** A character no HTTP header can carry as typed: a lone surrogate (no UTF-8 for it), a line break or a NUL. */
const UNSENDABLE_IN_HEADER = new RegExp(`${LONE_SURROGATE.source}|[\\r\\n\\0]`);

/**
 * Why no curl line can send these headers as typed (a shell line would send U+FFFD, or another header, in their
 * place), naming the first header and its character; undefined when every value can be sent.
 */
function unsendableHeader(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    const found = UNSENDABLE_IN_HEADER.exec(value)?.[0];
    if (found === undefined) continue;
    const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `# No curl line: the header ${name} holds ${code}, which an HTTP header cannot carry as typed; change the value.`;
  }
  return undefined;
}

export function curlLine(input: SampleInput): string {
  const { client, call } = input;
  const headers = { ...call.header, ...input.extraHeaders };
  const refused = unsendableHeader(headers);
  if (refused) return `${refused}\n`;
  const tokenVariable = tokenVariableOf(client);
  const lines: string[] = [];
  const parts = [`curl -i -X ${input.method.toUpperCase()} ${shellQuote(requestUrl(input.baseUrl, input.path, call))}`];
  if (input.secured && input.fixedToken) {
    parts.push(`-H ${shellQuote(`Authorization: Bearer ${input.fixedToken}`)}`);
  } else if ((input.secured && client.auth === 'credentials') || input.signed) {
    if (client.auth === 'credentials' && client.token)
      lines.push(
        `# ${tokenVariable}: an access token from ${client.token.operationId} (${client.token.method.toUpperCase()} ${client.token.path} with ${client.env.secret} as its body).`,
      );
    parts.push(`-H "Authorization: Bearer $${tokenVariable}"`);
  }
  for (const [name, value] of Object.entries(headers)) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (input.takesBody && input.credentialsBody) {
    lines.push(`# ${client.env.secret}: the body of ${input.operationId}, as JSON.`);
    parts.push(`-H 'Content-Type: application/json'`, `--data-raw "$${client.env.secret}"`);
  } else if (input.takesBody && call.body !== undefined) {
    parts.push(`-H 'Content-Type: application/json'`, `--data-raw ${shellQuote(JSON.stringify(call.body))}`);
  }
  lines.push(parts.join(' \\\n  '));
  return `${lines.join('\n')}\n`;
}

/**
 * The lines that set what the samples read, for credentials the reader asked to see: for a shell (the curl line,
 * or the TypeScript sample run from it) the address, the credentials and an access token from the family's token
 * call; for the TypeScript sample alone, the credentials set at its top.
 */
export function credentialLines(
  client: ClientInfo,
  baseUrl: string,
  credentials: unknown,
): { shell: string; typeScript: string } {
  const json = JSON.stringify(credentials);
  const shell = [`export ${client.env.url}=${shellQuote(baseUrl)}`, `export ${client.env.secret}=${shellQuote(json)}`];
  if (client.token) {
    const tokenUrl = requestUrl(baseUrl, client.token.path, { path: {}, query: {}, header: {} });
    shell.push(
      `export ${tokenVariableOf(client)}="$(curl -s -X ${client.token.method.toUpperCase()} ${shellQuote(tokenUrl)} -H 'Content-Type: application/json' --data-raw "$${client.env.secret}" | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')"`,
    );
  }
  return { shell: `${shell.join('\n')}\n`, typeScript: `process.env.${client.env.secret} = ${quoted(json)};\n` };
}
