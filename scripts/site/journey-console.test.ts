// The journey console's runner (src/console/journey/run.ts, with the console's transport: the `ramp-api` client
// and the answer check) runs every journey of openapi/workflows/ to its end against a sandbox, each with a fresh
// tenant and the inputs the console gives it, as the journey's page configures the console.
import { describe, expect, it } from 'vitest';
import { createSandboxClient } from '../../src/client/sandbox/index.js';
import { freshen } from '../../src/console/fresh.js';
import { startRun } from '../../src/console/journey/run.js';
import { journeyTransport } from '../../src/console/journey/transport.js';
import { routesOf } from '../../src/console/panel.js';
import { freshRunId } from '../../src/sandbox/journeys/run-id.js';
import { useSandbox } from '../../src/testing/sandbox-fixture.js';
import { readDocJourneys } from '../journeys/journey-docs.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { freshFields } from './fresh-fields.js';
import { journeyConfig } from './journey-pages.js';

const apis = allApiFamilies().map((api) => ({ api, doc: readBundle(api) }));
const families = apis.map(({ api, doc }) => ({ family: api.name, doc, page: `${api.name}.html` }));
const journeys = readDocJourneys(apis);
const fresh = freshFields(families);
// One set of routes per family for every run, as one page keeps them: each schema is compiled once.
const routesByFamily = Object.fromEntries(families.map(({ family, doc }) => [family, routesOf(family, doc)]));
describe.concurrent('the journey console against a sandbox', () => {
  const sandbox = useSandbox();
  for (const journey of journeys) {
    it(`${journey.slug}: runs to its end, every answer checked`, async () => {
      const config = journeyConfig(journey, families, fresh);
      const routes = Object.fromEntries(
        Object.entries(config.families).map(([family, { client }]) => [
          family,
          { client, routes: routesByFamily[family]! },
        ]),
      );
      const control = createSandboxClient({ baseUrl: sandbox.url, retry: false });
      const { data: tenant } = await control.createTenant({ body: { name: `Console ${journey.slug}` } });
      const inputs: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(config.tenantInputs))
        inputs[name] = (tenant as unknown as Record<string, unknown>)[field];
      for (const [name, path] of Object.entries(config.sandboxInputs)) inputs[name] = `${sandbox.url}${path}`;
      for (const name of config.freshInputs) inputs[name] = freshRunId();
      const run = startRun({
        library: config.library,
        file: config.file,
        workflowId: config.workflowId,
        inputs,
        freshen: (operation, body) => freshen(body, config.fresh[operation.operationId]),
      });
      const transport = journeyTransport(sandbox.url, routes);
      for (let call = run.prepare(); call; call = run.prepare()) {
        const record = await run.send(call, transport);
        if (record.waitMs) await new Promise((resolve) => setTimeout(resolve, record.waitMs));
      }
      expect(run.state.failed).toBeUndefined();
      expect(run.state.done).toBe(true);
    }, 60_000);
  }
});
