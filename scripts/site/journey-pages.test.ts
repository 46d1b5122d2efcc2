// The Journeys section of the site, built from the workflows of openapi/workflows/: a page per journey with its
// diagram (and the same calls in words), its steps linked to their references, the data between the steps, the
// console's configuration and a TypeScript sample that makes the same calls in the same order.
import { describe, expect, it } from 'vitest';
import { escapeHtml as esc } from '../../src/sandbox/http/escape-html.js';
import { sandboxTenant } from '../../src/sandbox/journeys/respect.js';
import { RUN_ID_INPUT } from '../../src/sandbox/journeys/run-id.js';
import { journeysUsing, readDocJourneys } from '../journeys/journey-docs.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { freshFields } from './fresh-fields.js';
import { journeyConfig, journeyDiagram, renderJourneyPage, SANDBOX_INPUTS, tenantInputs } from './journey-pages.js';
import { journeySample } from './journey-sample.js';
import { describe as inWords, renderSequenceDiagram } from './sequence-diagram.js';

const apis = allApiFamilies().map((api) => ({ api, doc: readBundle(api) }));
const families = apis.map(({ api, doc }) => ({ family: api.name, doc, page: `${api.name}.html` }));
const journeys = readDocJourneys(apis);
const fresh = freshFields(families);
const docs = Object.fromEntries(families.map((f) => [f.family, f.doc]));

describe('the journeys of the site', () => {
  it('are the workflows that take a tenant, the payout journey to completed and to rejected among them', () => {
    const ids = journeys.map((j) => j.workflow.workflowId);
    expect(ids).toEqual(expect.arrayContaining(['payoutCompleted', 'payoutRejected']));
    for (const journey of journeys) expect(journey.calls.length, journey.slug).toBeGreaterThan(0);
  });

  it('show the data between the steps, through the sub-workflows too', () => {
    const html = renderJourneyPage(journeys.find((j) => j.slug === 'payoutCompleted')!, journeys, families, [], fresh);
    const table = /aria-label="Data between the steps">(.*?)<\/table>/s.exec(html)![1]!;
    expect(table).toContain(
      '<tr><td><code>user</code></td><td><code>accessToken</code></td><td><code>pay</code> (workflow createPayout)</td></tr>',
    );
    expect(table).toContain(
      '<tr><td><code>pay</code></td><td><code>payoutId</code></td><td><code>complete</code> (completePayout)</td></tr>',
    );
  });

  it("name each operation's journeys for its reference, with the steps that call it", () => {
    const uses = journeysUsing(journeys, 'v1', 'createPayout');
    expect(uses.map((u) => u.journey.slug)).toEqual(expect.arrayContaining(['payoutCompleted', 'payoutRejected']));
    expect(uses.find((u) => u.journey.slug === 'payoutCompleted')!.steps).toEqual(['pay / createPayout']);
    expect(journeysUsing(journeys, 'v1', 'noSuchOperation')).toEqual([]);
  });

  for (const journey of journeys) {
    it(`${journey.slug}: a page with its diagram, its calls in words, each step linked to its reference`, () => {
      const html = renderJourneyPage(journey, journeys, families, [], fresh);
      const diagram = journeyDiagram(journey, families);
      expect(diagram.calls).toHaveLength(journey.calls.length);
      expect(html).toContain(
        `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="seq-${journey.slug}-title seq-${journey.slug}-desc"`,
      );
      expect(html).toContain(`<desc id="seq-${journey.slug}-desc">${esc(inWords(diagram))}</desc>`);
      for (const call of journey.calls) expect(html).toContain(`id="step-${call.path.join('-')}"`);
      const links = [...html.matchAll(/<h3>\d+\. <code>[^<]+<\/code>: <a href="([^"]+)">([^<]+)<\/a>/g)];
      expect(links.map((m) => m[2])).toEqual(journey.calls.map((c) => c.operationId));
      for (const [, href] of links) expect(href).toMatch(/^\.\.\/(business|v1|sandbox)\.html#\/[a-z0-9-]+\/[a-z0-9]+$/);
      const config = JSON.parse(
        /<script type="application\/json" id="ramp-journey-config">(.*?)<\/script>/s.exec(html)![1]!,
      );
      expect(config).toEqual(JSON.parse(JSON.stringify(journeyConfig(journey, families, fresh))));
      expect(Object.keys(config.library.files)).toContain(journey.file);
    });

    it(`${journey.slug}: its TypeScript sample makes the same calls, in the same order`, () => {
      const sample = journeySample(journey.library, journey, docs);
      const called = [...sample.matchAll(/= await (?:business|v1|sandbox)\([^)]*\)\.(\w+)\(/g)].map((m) => m[1]);
      // A step with a retry action calls its operation once before its loop and once in it.
      const expected = journey.calls.flatMap((c) =>
        c.step.onFailure?.some((a) => a.type === 'retry') ? [c.operationId, c.operationId] : [c.operationId],
      );
      expect(called).toEqual(expected);
      expect(sample).toMatch(new RegExp(`^export async function ${journey.slug}\\(`, 'm'));
      expect(sample).not.toContain('$faker');
      expect(sample).not.toMatch(/'\$(inputs|steps|response|outputs)/);
    });
  }
});

describe("the console's inputs of a journey", () => {
  it('are those the journeys are run with: the tenant createTenant makes, and the sandbox address', async () => {
    const tenant = {
      clientId: 'c-1',
      name: 'T',
      businessCredentials: { b: 1 },
      v1Credentials: { v: 1 },
      integrationRegister: 'r',
    };
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async () => new Response(JSON.stringify(tenant), { status: 201 })) as typeof fetch;
    let ran: Record<string, unknown>;
    try {
      ran = (await sandboxTenant('http://127.0.0.1:4020', 'Journeys')) as unknown as Record<string, unknown>;
    } finally {
      globalThis.fetch = realFetch;
    }
    const journey = journeys.find((j) => j.slug === 'payoutCompleted')!;
    const console_: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(tenantInputs(journey, families)))
      console_[name] = (tenant as Record<string, unknown>)[field];
    for (const [name, path] of Object.entries(SANDBOX_INPUTS)) console_[name] = `http://127.0.0.1:4020${path}`;
    // New for each run, on both sides: the same inputs, each its own value.
    const { freshInputs } = journeyConfig(journey, families, fresh);
    expect(freshInputs).toEqual([RUN_ID_INPUT]);
    for (const name of freshInputs) {
      expect(ran[name]).toMatch(/^[0-9a-f]{8}$/);
      console_[name] = ran[name];
    }
    expect(console_).toEqual(ran);
  });
});

describe('the sequence diagram', () => {
  it('draws a lifeline per participant and two arrows per call, and says the same in words', () => {
    const diagram = {
      participants: ['Your code', 'v1 API', 'Sandbox control API'],
      calls: [
        { to: 'v1 API', request: '1. createClientToken', answer: '200: accessToken' },
        { to: 'Sandbox control API', request: '2. approveUser & <co>', answer: 'an answer' },
      ],
    };
    const svg = renderSequenceDiagram(diagram, 'Sequence of a test', 'seq-test');
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg.match(/marker-end=/g)).toHaveLength(4);
    expect(svg).toContain('2. approveUser &amp; &lt;co&gt;');
    expect(svg).toContain('<title id="seq-test-title">Sequence of a test</title>');
    expect(inWords(diagram)).toBe(
      '1. createClientToken: Your code calls the v1 API, which answers 200: accessToken. 2. approveUser & <co>: Your code calls the Sandbox control API, which answers an answer.',
    );
  });
});
