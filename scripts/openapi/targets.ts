// Where the contract suite sends its requests: Prism mocks by default, or a real deployment named by
// BUSINESS_API_URL / V1_API_URL (the variables of src/sandbox/journeys/deployment.ts), with the parameter values
// docs/guides/real-deployment.md documents. contract-tests/targets.ts makes the clients.

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

/** The families under test: all of redocly.yaml, or those listed in CONTRACT_FAMILIES (comma-separated). */
export function selectedFamilies(): ApiFamily[] {
  const only = process.env.CONTRACT_FAMILIES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return apiFamilies().filter((api) => !only || only.includes(api.name));
}
