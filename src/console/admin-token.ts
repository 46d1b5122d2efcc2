// The sandbox's admin token as the console's user typed it: kept with the address it was typed for, and sent
// to that address only, so switching the console to another target never carries it there.

export interface TypedAdminToken {
  /** The address the console sent to when the token was typed. */
  baseUrl: string;
  token: string;
}

export const NO_ADMIN_TOKEN: TypedAdminToken = { baseUrl: '', token: '' };

/** The token to send to `baseUrl`: the one typed, if it was typed for that address; else none (''). */
export function adminTokenFor(typed: TypedAdminToken, baseUrl: string): string {
  return typed.baseUrl === baseUrl ? typed.token : '';
}
