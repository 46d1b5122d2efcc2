// Where the contract suite and the journeys send their requests: Prism mocks by default, or a real deployment named
// by BUSINESS_API_URL / V1_API_URL, with the parameter values docs/guides/real-deployment.md documents. The
// environment is read here; contract-tests/targets.ts makes the clients.

import { type ApiFamily, apiFamilies } from './apis.js';

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
