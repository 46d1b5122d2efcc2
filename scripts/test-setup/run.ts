// Vitest global setup of `npm test`: the build (build.ts), the run's PostgreSQL cluster (postgres.ts), its
// temporary folder (temp.ts) and the Prism mocks (scripts/test-setup/prism.ts), at once where they can be
// rather than one after another as vitest runs a list of setups: the cluster starts while the build runs, and
// the mocks start as soon as the bundles they serve are written, beside the rest of the build. Torn down in
// the reverse order, as vitest would.
import type { TestProject } from 'vitest/node';
import postgresSetup from './postgres.js';
import prismSetup from './prism.js';
import tempSetup from './temp.js';

type Teardown = () => unknown;

export default async function setup(project: TestProject): Promise<Teardown> {
  let stopPostgres: Teardown | undefined;
  let removeTemp: Teardown | undefined;
  let stopPrism: Teardown | undefined;
  const teardown = async () => {
    await stopPrism?.();
    removeTemp?.();
    await stopPostgres?.();
  };
  // The cluster first: its folder is made outside the run's, and its exit hook (registered before the call
  // returns) runs before the run folder's, so an interrupted run stops it before that folder goes.
  const postgres = postgresSetup(project).then((stop) => {
    stopPostgres = stop;
  });
  removeTemp = tempSetup(project);
  const startPrism = async () => {
    stopPrism = await prismSetup(project);
  };
  // A nested run (contract-tests/broken-server.test.ts starts vitest) uses what its parent just built, and does
  // not load the build's modules either. The packages are compiled without their type check, which is a test of
  // the run (scripts/checks/static-checks.test.ts).
  const built =
    process.env.CONTRACT_SKIP_BUNDLE === '1'
      ? startPrism()
      : import('../build/build-all.js').then(({ buildAll }) =>
          buildAll({ afterBundles: startPrism, typeCheck: false }),
        );
  const steps = await Promise.allSettled([postgres, built]);
  const failed = steps.find((step) => step.status === 'rejected');
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  return teardown;
}
