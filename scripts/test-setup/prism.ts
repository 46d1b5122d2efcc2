// Vitest global setup of the contract suite: one Prism mock per family on a free loopback port, unless
// the family's *_API_URL names a real deployment. Everything started here is stopped in teardown.
import type { TestProject } from 'vitest/node';
import { envPrefix } from '../../src/sandbox/journeys/deployment.js';
import { type PrismServer, startPrism } from '../openapi/prism.js';
import { type ContractTarget, selectedFamilies } from '../openapi/targets.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: PrismServer[] = [];
  const stopAll = () => Promise.all(started.map((s) => s.stop())).then(() => undefined);
  try {
    const targets: ContractTarget[] = await Promise.all(
      selectedFamilies().map(async (api): Promise<ContractTarget> => {
        const live = process.env[`${envPrefix(api.name)}URL`];
        if (live) return { family: api.name, mode: 'live', url: live.replace(/\/+$/, '') };
        const server = await startPrism({ bundle: api.bundleJson });
        started.push(server);
        return { family: api.name, mode: 'mock', url: server.url };
      }),
    );
    project.provide('contractTargets', targets);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
