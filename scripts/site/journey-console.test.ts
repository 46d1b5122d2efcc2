// The journey console's runner (src/console/journey/run.ts, with the console's transport: the `ramp-api` client
// and the answer check) runs every journey of openapi/workflows/ to its end against a sandbox, each with a fresh
// tenant and the inputs the console gives it, as the journey's page configures the console. The journeys that move
// sandbox time run last, each against a sandbox of its own.
import { describe, expect, it } from 'vitest';
import { createSandboxClient } from '../../src/client/sandbox/index.js';
import { freshen } from '../../src/console/fresh.js';
import { startRun } from '../../src/console/journey/run.js';
import { journeyTransport } from '../../src/console/journey/transport.js';
import { routesOf } from '../../src/console/panel.js';
import { freshRunId } from '../../src/sandbox/journeys/run-id.js';
import { useSandbox } from '../../src/testing/sandbox-fixture.js';
import { type DocJourney, readDocJourneys } from '../journeys/journey-docs.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { freshFields } from './fresh-fields.js';
import { journeyConfig } from './journey-pages.js';

const apis = allApiFamilies().map((api) => ({ api, doc: readBundle(api) }));
const families = apis.map(({ api, doc }) => ({ family: api.name, doc, page: `${api.name}.html` }));
const journeys = readDocJourneys(apis);
const fresh = freshFields(families);
// One set of routes per family for every run, as one page keeps them: each schema is compiled once.
const routesByFamily = Object.fromEntries(families.map(({ family, doc }) => [family, routesOf(family, doc)]));
/**
 * Whether the journey moves sandbox time. The clock is the whole sandbox's: moved past a delivery's timeout, it ends
 * another journey's call in flight as a timeout.
 */
const movesClock = (journey: DocJourney) =>
  journey.calls.some((call) => call.family === 'sandbox' && call.operationId === 'advanceClock');

/** Runs `journey` in the console's runner against `sandbox`, with a fresh tenant, to its end. */
async function runsToItsEnd(journey: DocJourney, sandbox: { url: string }): Promise<void> {
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
}

const title = (journey: DocJourney) => `${journey.slug}: runs to its end, every answer checked`;

describe.concurrent('the journey console against a sandbox', () => {
  const sandbox = useSandbox();
  for (const journey of journeys.filter((j) => !movesClock(j)))
    it(title(journey), () => runsToItsEnd(journey, sandbox), 60_000);
});

// After the others, each against a sandbox of its own, so that no other journey's call is in flight when it moves
// the clock, and no other journey moves it under its own.
describe('the journey console against a sandbox of its own, for a journey that moves sandbox time', () => {
  it('knows the journeys that do', () => {
    expect(journeys.filter(movesClock).map((j) => j.slug)).toEqual(
      expect.arrayContaining(['delayedOutcomesByTrigger', 'webhookRetried']),
    );
  });
  for (const journey of journeys.filter(movesClock))
    describe(journey.slug, () => {
      const sandbox = useSandbox();
      it(title(journey), () => runsToItsEnd(journey, sandbox), 60_000);
    });
});
