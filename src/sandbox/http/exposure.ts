// Who may reach the sandbox: the control API is open on loopback only, unless there is an admin token. Apart
// from the server so that the command line checks its options without loading the server.
import { isIP } from 'node:net';

export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** 127.0.0.0/8, ::1 and localhost: the addresses only this machine reaches. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Checks the admin token and the address together: the control API is open on loopback only. */
export function checkExposure(host: string, adminToken: string | undefined): void {
  if (
    adminToken !== undefined &&
    (typeof adminToken !== 'string' || adminToken.length < MIN_ADMIN_TOKEN_LENGTH || /[\s]/.test(adminToken))
  ) {
    throw new Error(`The admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters, without spaces.`);
  }
  if (!isLoopback(host) && adminToken === undefined) {
    throw new Error(
      `Refusing to listen on ${host}, which is not a loopback address, without an admin token: anyone who reaches it could drive the control API. Set SANDBOX_ADMIN_TOKEN (or --admin-token-file FILE), or listen on 127.0.0.1.`,
    );
  }
}
