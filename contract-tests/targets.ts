// Where the contract suite sends its requests: Prism mocks by default, or a real deployment named by
// BUSINESS_API_URL / V1_API_URL, with the credentials and parameter values docs/guides/real-deployment.md documents.

import { type ApiFamily, apiFamilies } from '../scripts/lib/apis.js';
import { type AuthOptions, createBusinessClient, createV1Client } from '../src/client/index.js';

export interface ContractTarget {
  family: string;
  mode: 'mock' | 'live';
  url: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    contractTargets: ContractTarget[];
  }
}

/** Environment variable prefix of each family: BUSINESS_API_URL, V1_API_TOKEN, ... */
export const envPrefix = (family: string) => `${family.toUpperCase()}_API_`;

/** The families under test: all of redocly.yaml, or those listed in CONTRACT_FAMILIES (comma-separated). */
export function selectedFamilies(): ApiFamily[] {
  const only = process.env.CONTRACT_FAMILIES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return apiFamilies().filter((api) => !only || only.includes(api.name));
}

export const writesAllowed = () => process.env.CONTRACT_ALLOW_WRITES === '1';

/** Values for path, query and header parameters (and top-level body fields) on a real deployment. */
export function parameterOverrides(): Record<string, unknown> {
  const raw = process.env.CONTRACT_PARAMS;
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new Error('CONTRACT_PARAMS must be a JSON object such as {"clientId":"...","userId":"..."}');
  }
}

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
