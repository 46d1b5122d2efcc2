// The contract suite's clients for a target (scripts/openapi/targets.ts reads which targets and their
// environment): the credentials docs/guides/real-deployment.md documents.

import type { ContractTarget } from '../scripts/openapi/targets.js';
import { type AuthOptions, createBusinessClient, createV1Client } from '../src/client/index.js';
import { envPrefix } from '../src/sandbox/journeys/deployment.js';

function authFor(target: ContractTarget): AuthOptions {
  if (target.mode === 'mock') return { token: 'contract-test-token' };
  const prefix = envPrefix(target.family);
  const token = process.env[`${prefix}TOKEN`];
  if (token) return { token };
  const credentials = process.env[`${prefix}CREDENTIALS`];
  if (credentials) return { credentials: JSON.parse(credentials) as Record<string, unknown> };
  throw new Error(`Set ${prefix}TOKEN or ${prefix}CREDENTIALS (JSON body of the token call) to test ${target.url}.`);
}

/** A generated client for the target; `authenticated: false` sends no token at all, `{ token }` sends that one. */
export function clientFor(
  target: ContractTarget,
  authenticated: boolean | { token: string } = true,
): Record<string, (init?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>> {
  const options = {
    baseUrl: target.url,
    retry: false as const,
    timeoutMs: 15_000,
    ...(typeof authenticated === 'object' ? { auth: authenticated } : authenticated ? { auth: authFor(target) } : {}),
  };
  const client = target.family === 'business' ? createBusinessClient(options) : createV1Client(options);
  return client as unknown as ReturnType<typeof clientFor>;
}
