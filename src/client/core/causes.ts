// The likely cause of the failures a first hour meets, and the fix, in words: a baseUrl with a path the
// operations already carry, credentials the token call refused or that are empty, a service that is not
// listening. Only addresses and field names go into these sentences, never a credential's or a token's value.

/** The first path segment every operation of a family shares (`/api`), or '' when they share none. */
export function sharedPrefix(paths: readonly string[]): string {
  const firsts = new Set(paths.map((path) => /^\/[^/{]+/.exec(path)?.[0] ?? ''));
  return firsts.size === 1 ? [...firsts][0]! : '';
}

/**
 * Why a call to `calledPath` found nothing (404, 405) when `baseUrl` has a path of its own; undefined when it
 * has none. `prefix` is the segment the family's operation paths start with (see `sharedPrefix`).
 */
export function baseUrlCause(baseUrl: string, prefix: string, calledPath: string): string | undefined {
  const { origin, pathname } = new URL(baseUrl);
  const basePath = pathname.replace(/\/+$/, '');
  if (!basePath) return undefined;
  if (prefix && basePath.endsWith(prefix)) {
    return (
      `likely cause: \`baseUrl\` ends with ${prefix}, which the operations' paths already start with, so the call ` +
      `went to ${calledPath}; fix: use \`baseUrl: '${origin}${basePath.slice(0, -prefix.length)}'\``
    );
  }
  return (
    `likely cause: \`baseUrl\` has the path ${basePath}, which goes before every operation's path (the call went ` +
    `to ${calledPath}); fix: check that the deployment serves this API under ${basePath}, or leave the path out`
  );
}

/** How the token call of one family speaks of its credentials. */
export interface CredentialWords {
  /** The API's name: `Business` or `v1`. */
  api: string;
  /** The other family's name. */
  other: string;
  /** The function that creates this family's client, and the sandbox's name for its credentials. */
  factory: string;
  sandboxField: string;
}

/** The names of the credentials' fields that hold nothing (missing, null, or an empty or blank text). */
export function emptyFields(credentials: Record<string, unknown>): string[] {
  return Object.keys(credentials).filter((key) => {
    const value = credentials[key];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
}

/** `auth.credentials` carries nothing at all: `{}`, or only empty fields. */
export function credentialsEmpty(credentials: Record<string, unknown> | null | undefined): boolean {
  return !credentials || emptyFields(credentials).length === Object.keys(credentials).length;
}

/** Why the token call was not sent: the credentials are empty. */
export function emptyCredentialsCause(words: CredentialWords | undefined): string {
  const which = words
    ? `the ${words.api} credentials the operator issued (against the sandbox, a tenant's \`${words.sandboxField}\` from createTenant)`
    : 'the credentials the operator issued';
  return (
    'likely cause: `auth.credentials` is empty (no field with a value): the variables it is read from are often ' +
    `not set; fix: pass ${which}`
  );
}

/** Why the token call was refused (400, 401, 403). */
export function refusedCredentialsCause(words: CredentialWords | undefined, empty: readonly string[]): string {
  if (empty.length > 0) {
    const fields = empty.map((name) => `\`${name}\``).join(', ');
    return `likely cause: \`auth.credentials\` has no value for ${fields}: the variable it is read from may not be set`;
  }
  if (!words) return 'likely cause: the service does not know these credentials; fix: pass the ones it issued';
  return (
    `likely cause: the service does not know these credentials: either they are the ${words.other} API's (each API ` +
    `issues its own; ${words.factory} takes the ${words.api} credentials, \`${words.sandboxField}\` from the ` +
    "sandbox's createTenant), or no client of this deployment has them (mistyped, another deployment's, or a " +
    `sandbox's since restarted); fix: pass this deployment's ${words.api} credentials`
  );
}

/** Why nothing at `baseUrl` answers the token call (404, 405) when `baseUrl` has no path of its own. */
export const NO_TOKEN_ENDPOINT =
  'likely cause: nothing at this address answers the token call; fix: check that `baseUrl` is the address of this API';

/** Why nothing answered at `host`, when the system error says so; undefined for other failures. */
export function unreachableCause(host: string, code: string | null): string | undefined {
  if (code !== 'ECONNREFUSED') return undefined;
  return (
    `likely cause: nothing is listening at ${host}: the service (or the sandbox) is not running, or runs at ` +
    'another address; fix: start it (`npx ramp-api-sandbox`) and use the address it prints as `baseUrl`'
  );
}
