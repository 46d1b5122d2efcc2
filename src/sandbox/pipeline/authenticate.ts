// Stage 2, authentication: the tenant a call acts for, from its bearer token and the operation's `security`.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Route } from '../contract/router.js';
import type { Clock } from '../core/clock.js';
import type { Tenant } from '../core/handler.js';
import type { InstanceState } from '../core/instance.js';
import { refusals } from '../core/refusals.js';
import { tenantForToken } from '../resources/tenants.js';
import type { Db } from '../store/db.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export type Authenticate = (route: Route, req: IncomingMessage) => Promise<Tenant | null>;

/**
 * The tenant a call acts for: null for a public operation, and for a control call made with the admin token
 * (or with no token on a sandbox that has none), which reaches every tenant. A tenant's token on a control
 * operation that accepts it scopes the call to that tenant's records.
 */
export function createAuthenticator(
  db: Db,
  clock: Clock,
  instance: InstanceState,
  adminToken: string | undefined,
): Authenticate {
  // Compared as digests of equal length, in constant time: neither the token nor its length leaks by timing.
  const adminDigest = adminToken === undefined ? undefined : digest(adminToken);
  return async (route, req) => {
    if (!route.secured) return null;
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const admin = route.credentials.includes('admin');
    if (admin && !token && !adminDigest) return null;
    if (admin && token && adminDigest && timingSafeEqual(digest(token), adminDigest)) return null;
    let tenant: Tenant | null = null;
    for (const family of route.credentials) {
      if (family === 'admin') continue;
      tenant ??= token ? await tenantForToken(db, instance.tokens, token, family, clock.now(), !db.shared) : null;
    }
    if (tenant) return tenant;
    throw refusals.unauthorized(
      !admin
        ? 'A valid, unexpired access token of this API family is required.'
        : route.credentials.length > 1
          ? "This control operation needs the sandbox's admin token or a tenant's own access token."
          : "This control operation needs the sandbox's admin token.",
    );
  };
}
