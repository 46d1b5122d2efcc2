// The likely cause of the failures a first hour meets, and the fix, in words: a baseUrl with a path the
// operations already carry, credentials the token call refused or that are empty, a service that is not
// listening. Only addresses and field names go into these sentences, never a credential's or a token's value.

/** The first path segment every operation of a family shares (`/api`), or '' when they share none. */
export function sharedPrefix(paths: readonly string[]): string {
  const firsts = new Set(paths.map((path) => path.split('/')[1]));
  return firsts.size === 1 ? `/${[...firsts][0]}` : '';
}

/**
 * Why a call found nothing (404, 405) when `baseUrl` (without a trailing slash) has a path of its own; undefined
 * when it has none. `prefix` is the segment the family's operation paths start with (see `sharedPrefix`; every
 * family has one). Where the path holds it (`/api`, `/api/v1`, `/gateway/api`), the fix is `baseUrl` without it
 * and what follows it. (Written for the bundle budget, scripts/bench/size-budget.json: every byte here is shipped.)
 */
export function baseUrlCause(baseUrl: string, prefix: string): string | undefined {
  const { origin, pathname } = new URL(baseUrl);
  if (pathname === '/') return undefined;
  const at = pathname.indexOf(prefix);
  return `likely cause: \`baseUrl\` has the path ${pathname}${at >= 0 ? `, which the operations' paths already carry; fix: \`baseUrl: '${origin}${pathname.slice(0, at)}'\`` : ''}`;
}

/** The API whose credentials a token call takes: `Business` or `v1`. */
export type CredentialsOf = 'Business' | 'v1';

/** What the sandbox's createTenant calls an API's credentials. */
const named = (api: CredentialsOf) => `\`${api === 'v1' ? 'v1' : 'business'}Credentials\``;

/** The names of the credentials' fields that hold nothing (missing, null, or an empty or blank text). */
export function emptyFields(credentials: Record<string, unknown> | null | undefined): string[] {
  return Object.keys(credentials ?? {}).filter((key) => `${credentials![key] ?? ''}`.trim() === '');
}

/** Why the token call was not sent: `auth.credentials` holds nothing (`{}`, or only empty fields). */
export const emptyCredentialsCause = (api: CredentialsOf) =>
  `likely cause: empty \`auth.credentials\` (variables not set?); fix: pass ${named(api)}`;

/** Why the token call was refused (400, 401, 403). */
export const refusedCredentialsCause = (api: CredentialsOf, empty: readonly string[]) =>
  `likely cause: ${empty.length ? `no value for ${empty.join(', ')}` : `the ${api === 'v1' ? 'Business' : 'v1'} API's credentials (this client takes ${named(api)}) or unknown ones`}`;

/** Why nothing answered at `host`, when the system error says so; undefined for other failures. */
export const unreachableCause = (host: string, code: string | null) =>
  code === 'ECONNREFUSED'
    ? `likely cause: nothing listens at ${host}; fix: start the sandbox or service there`
    : undefined;
