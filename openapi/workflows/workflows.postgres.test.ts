// Every journey (openapi/workflows/*.arazzo.yaml) run by `redocly respect` against a fresh sandbox on each store
// under test: each step's answer is checked against the description (status, content type, schema) and against
// the step's success criteria; the service-only journeys among them with a deployment's inputs. Then what respect
// cannot compute: the failing endpoint's calls came on the documented schedule (1000 ms after the first failed
// call, then 4 times longer).
// In `npm run test:postgres`, on PostgreSQL: `npm test` runs every journey with the journey console's runner
// (scripts/site/journey-console.test.ts), which costs a fraction of respect's CPU.
import { expect, it } from 'vitest';
import { repoJourneys, workflowsDir } from '../../scripts/journeys/workflows.js';
import { findRedocly } from '../../src/sandbox/journeys/redocly.js';
import { type RespectRun, runJourneysOnSandbox } from '../../src/sandbox/journeys/respect.js';
import { forEachStore, useSandbox } from '../../src/testing/sandbox-fixture.js';

/** The journeys, read once for the whole file. */
const all = repoJourneys();
const ids = (list: { workflow: { workflowId: string } }[]) => list.map((j) => j.workflow.workflowId).sort();

/** Lines of respect's report that say what failed (its banners and passed checks left out). */
function failures(run: RespectRun): string {
  return run.output
    .split('\n')
    .filter((line) => /✗|Reason|Error|error/.test(line) && !/[║╔╚]/.test(line))
    .join('\n');
}

interface Attempt {
  time: string;
  finishedAt: string;
  httpStatus: number | null;
}

forEachStore('the journeys', (store) => {
  const sandbox = useSandbox({ store });
  let runs: RespectRun[] = [];

  it('every workflow passes under redocly respect, every answer checked against the description', async () => {
    const started = performance.now();
    runs = await runJourneysOnSandbox(sandbox.url, all, { cli: findRedocly(workflowsDir) });
    console.log(
      `[journeys] ${store.name}: ${all.length} journeys in ${runs.length} runs of a file, ${Math.round(performance.now() - started)} ms`,
    );
    // Every journey ran, once, and every file.
    expect(runs.flatMap((r) => r.workflows).sort()).toEqual(ids(all));
    expect([...new Set(runs.map((r) => r.file))].sort()).toEqual([...new Set(all.map((j) => j.file.name))].sort());
    for (const run of runs) {
      expect(run.ok, `${run.file}:\n${failures(run)}`).toBe(true);
      expect(run.output, run.file).toMatch(
        new RegExp(`Workflows: ${run.workflows.length} passed, ${run.workflows.length} total`),
      );
    }
  }, 300_000);

  it('a failing endpoint is called on the documented schedule: 1000 ms after the first failure, then 4000 ms', async () => {
    const tenant = runs.find((r) => r.workflows.includes('webhookRetried'))?.tenant;
    expect(tenant, 'the webhooks journeys ran').toBeDefined();
    const answer = await fetch(`${sandbox.url}/sandbox/deliveries?tenant=${tenant!.clientId}`);
    const { deliveries } = (await answer.json()) as { deliveries: { status: string; attempts: Attempt[] }[] };
    const failed = deliveries.filter((d) => d.status === 'failed');
    expect(failed).toHaveLength(1);
    const [first, second, third] = failed[0]!.attempts;
    const gap = (before: Attempt, after: Attempt) => Date.parse(after.time) - Date.parse(before.finishedAt);
    expect(failed[0]!.attempts.map((a) => a.httpStatus)).toEqual([500, 500, 500]);
    // At or after its due time, and well before the next delay of the schedule would have been due.
    expect(gap(first!, second!)).toBeGreaterThanOrEqual(1000);
    expect(gap(first!, second!)).toBeLessThan(4000);
    expect(gap(second!, third!)).toBeGreaterThanOrEqual(4000);
    expect(gap(second!, third!)).toBeLessThan(16000);
  });

  it("ran the service-only journeys unchanged as against a deployment: no sandbox input, only the service's API", () => {
    // Their runs had a tenant's inputs as a deployment's run gives them, without the sandbox's address; the
    // journeys are service-only because each of their steps calls the v1 or the Business API (journeys.ts).
    const asDeployment = runs.filter((r) => r.tenant && !('sandboxUrl' in r.tenant)).flatMap((r) => r.results);
    const service = ids(all.filter((j) => j.kind === 'service'));
    expect(service.length).toBeGreaterThan(0);
    expect(
      asDeployment
        .filter((w) => service.includes(w.workflowId))
        .map((w) => `${w.workflowId} ${w.status}`)
        .sort(),
    ).toEqual(service.map((id) => `${id} passed`));
  });
});
