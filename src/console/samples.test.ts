// The console's samples are built from whatever its user types: a lone surrogate or a carriage return in a
// parameter gives samples that parse and say what is sent, never a throw.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type ClientInfo, curlLine, requestUrl, type SampleInput, typeScriptSample } from './samples.js';

const client: ClientInfo = {
  create: 'createBusinessClient',
  from: 'ramp-api',
  variable: 'business',
  auth: 'credentials',
  env: { url: 'BUSINESS_API_URL', secret: 'BUSINESS_API_CREDENTIALS' },
};
const sample = (value: string): SampleInput => ({
  client,
  baseUrl: 'http://127.0.0.1:4020',
  operationId: 'listBankAccounts',
  method: 'post',
  path: '/api/accounts/{clientId}',
  secured: true,
  signed: false,
  takesBody: true,
  call: { path: { clientId: value }, query: { q: value }, header: { 'X-Note': value }, body: { note: value } },
  extraHeaders: {},
});

/** The syntax errors TypeScript finds in `source`. */
const syntaxErrors = (source: string) =>
  (ts.transpileModule(source, { reportDiagnostics: true }).diagnostics ?? []).map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );

describe('samples from any input', () => {
  it.each([
    ['a carriage return', 'a\rb'],
    ['a line and paragraph separator', 'a\u2028b\u2029c'],
    ['control characters', 'a\u0000\u0007\u001bb'],
    ['quotes and backslashes', `it's "x" \\ y`],
    ['a lone surrogate', 'a\uD800b'],
  ])('%s: the TypeScript sample compiles and holds the value', (_what, value) => {
    const source = typeScriptSample(sample(value));
    expect(syntaxErrors(source)).toEqual([]);
    // The body's value, read back from the sample, is the one typed (a lone surrogate stays escaped).
    const body = /note: ('(?:[^'\\]|\\.)*')/.exec(source)?.[1];
    expect(body).toBeDefined();
    expect(new Function(`return ${body}`)()).toBe(value);
  });

  it('a lone surrogate in a path parameter: the URL and the curl line are made (U+FFFD sent in its place)', () => {
    expect(() => requestUrl('http://127.0.0.1:4020', '/api/accounts/{clientId}', sample('a\uDC00').call)).not.toThrow();
    expect(requestUrl('http://127.0.0.1:4020', '/api/accounts/{clientId}', sample('a\uDC00').call)).toContain(
      '/api/accounts/a%EF%BF%BD',
    );
    expect(() => curlLine(sample('a\uD800'))).not.toThrow();
  });

  it.each([
    ['a lone surrogate', 'a\uD800b', 'U+D800'],
    ['a lone low surrogate', 'a\uDC00', 'U+DC00'],
    ['a carriage return', 'a\rb', 'U+000D'],
    ['a line feed', 'a\nb', 'U+000A'],
  ])(
    '%s in a header value: no curl line that would send another header, and a word saying why',
    (_what, value, named) => {
      for (const input of [sample(value), { ...sample('plain'), extraHeaders: { 'X-Extra': value } }]) {
        const line = curlLine(input);
        expect(line).not.toMatch(/^curl /m);
        expect(line).toMatch(
          new RegExp(`^# No curl line: the header X-(Note|Extra) holds ${named.replace('+', '\\+')}`, 'm'),
        );
        expect(line).not.toContain(value);
      }
      // A well-formed pair (an emoji) is sent as it is, as UTF-8.
      expect(curlLine(sample('a\uD83D\uDE00b'))).toContain("-H 'X-Note: a\uD83D\uDE00b'");
    },
  );
});
