// Arazzo 1.0.1 runtime expressions (section "Runtime Expressions"), checked against the specification's ABNF:
//
//   expression = ( "$url" / "$method" / "$statusCode" / "$request." source / "$response." source /
//                  "$inputs." name / "$outputs." name / "$steps." name / "$workflows." name /
//                  "$sourceDescriptions." name / "$components." name / "$components.parameters." parameter-name )
//   source = ( header-reference / query-reference / path-reference / body-reference )
//   header-reference = "header." token        query-reference = "query." name
//   path-reference = "path." name              body-reference = "body" ["#" json-pointer ]
//   json-pointer = *( "/" reference-token )    reference-token = *( unescaped / escaped )
//   unescaped = %x00-2E / %x30-7D / %x7F-10FFFF   escaped = "~" ( "0" / "1" )
//   name = *( CHAR )   (CHAR: a character of a JSON string, RFC 7159 section 7)
//   token = 1*tchar    tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" /
//                              "|" / "~" / DIGIT / ALPHA
//
// No maintained npm package with this grammar could be installed here (@swaggerexpert/arazzo-runtime-expression
// is not in the registry this project uses), so this is the grammar by hand: small, and specific to Arazzo.

/** Why `text` is not an expression of the grammar, or undefined when it is one. */
export function expressionError(text: string): string | undefined {
  if (text === '$url' || text === '$method' || text === '$statusCode') return undefined;
  for (const message of ['$request.', '$response.'])
    if (text.startsWith(message)) return sourceError(text.slice(message.length), message);
  // "$components.parameters." name is "$components." name too: one rule covers both.
  for (const prefix of ['$inputs.', '$outputs.', '$steps.', '$workflows.', '$sourceDescriptions.', '$components.'])
    if (text.startsWith(prefix)) return nameError(text.slice(prefix.length), prefix);
  const head = /^\$[A-Za-z]*/.exec(text)?.[0] ?? text.slice(0, 1);
  return head.startsWith('$')
    ? `${head} is not a runtime expression of Arazzo 1.0.1 ($url, $method, $statusCode, $request., $response., $inputs., $outputs., $steps., $workflows., $sourceDescriptions., $components.)`
    : 'a runtime expression starts with $';
}

/** `source` of `$request.` / `$response.`: a header, query, path or body reference. */
function sourceError(source: string, message: string): string | undefined {
  if (source.startsWith('header.'))
    return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(source.slice(7))
      ? undefined
      : `${message}header. is followed by a header name (RFC 7230 token characters)`;
  if (source.startsWith('query.')) return nameError(source.slice(6), `${message}query.`);
  if (source.startsWith('path.')) return nameError(source.slice(5), `${message}path.`);
  if (source === 'body') return undefined;
  if (source.startsWith('body#')) return pointerError(source.slice(5));
  return `${message} is followed by header., query., path. or body`;
}

/** RFC 6901: empty, or "/"-separated tokens in which "~" is only "~0" or "~1". */
function pointerError(pointer: string): string | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return `the JSON pointer "${pointer}" does not start with /`;
  return /~(?![01])/.test(pointer) ? `the JSON pointer "${pointer}" has a ~ that is not ~0 or ~1` : undefined;
}

/** `name = *( CHAR )`: characters of a JSON string, so no raw `"`, control character, or lone backslash. */
function nameError(name: string, prefix: string): string | undefined {
  const char = /^(?:[\u0020\u0021\u0023-\u005B\u005D-\u{10FFFF}]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*$/u;
  return char.test(name) ? undefined : `${prefix} is followed by a name of JSON string characters`;
}

/** The expressions embedded in text as `{$...}` (the specification's way to put an expression in a string). */
export function embeddedExpressions(text: string): string[] {
  return [...text.matchAll(/\{(\$[^{}]*)\}/g)].map((m) => m[1]!);
}

/**
 * The runtime expressions a simple condition names (`$statusCode == 200 && $response.body#/id != null`): each
 * `$...` outside quoted literals, up to a space, a parenthesis or an operator.
 */
export function conditionExpressions(condition: string): string[] {
  const unquoted = condition.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  return [...unquoted.matchAll(/\$[^\s()=!<>&|]*(?:\(\))?/g)].map((m) => m[0]);
}
