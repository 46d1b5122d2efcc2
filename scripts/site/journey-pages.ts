// The site's Journeys section (site/journeys/): an index and one page per workflow, with its inputs, a sequence
// diagram of its calls drawn at build time (with the same calls in words as its text alternative), its steps
// (the operation, what is sent, what counts as success, the outputs), the data that flows between the steps,
// the journey console that runs it against the local sandbox, and its TypeScript sample.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked } from 'marked';
import { listOperations, resolveRef } from '../../src/client/lookup/index.js';
import type { FreshFields } from '../../src/console/fresh.js';
import type { JourneyConfig } from '../../src/console/journey/config.js';
import { escapeHtml as esc } from '../../src/sandbox/http/escape-html.js';
import { allSteps, type Library, stepReferences } from '../../src/sandbox/journeys/arazzo.js';
import { RUN_ID_INPUT } from '../../src/sandbox/journeys/run-id.js';
import { type DocJourney, journeyTitle } from '../journeys/journey-docs.js';
import type { OpenApiDocument } from '../openapi/apis.js';
import { CONSOLE_DIR, consoleClient, TARGETS_FILE } from './console-build.js';
import type { ReferenceLink } from './guide-pages.js';
import { journeySample } from './journey-sample.js';
import { redocRoute } from './landing.js';
import { type Diagram, renderSequenceDiagram } from './sequence-diagram.js';

export interface SiteFamily {
  family: string;
  doc: OpenApiDocument;
  page: string;
}

const markdown = new Marked({ gfm: true });
const prose = (text: string | undefined) => (text ? markdown.parse(text.trim(), { async: false }) : '');
const inline = (text: string) => markdown.parseInline(text.trim(), { async: false });
const code = (value: unknown) => `<code>${esc(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;

function entryOf(families: SiteFamily[], family: string, operationId: string) {
  const site = families.find((f) => f.family === family)!;
  const entry = listOperations(site.doc).find((e) => e.operationId === operationId)!;
  return {
    site,
    entry,
    href: `../${site.page}${redocRoute(String(entry.operation.tags?.[0] ?? site.doc.info.title), operationId)}`,
  };
}

/** The expected status a step's criteria name (`$statusCode == 201`), if any. */
const expectedStatus = (journeyCall: DocJourney['calls'][number]) =>
  journeyCall.step.successCriteria?.map((c) => /\$statusCode\s*==\s*(\d{3})/.exec(c.condition)?.[1]).find(Boolean);

export function journeyDiagram(journey: DocJourney, families: SiteFamily[]): Diagram {
  const title = (family: string) => families.find((f) => f.family === family)!.doc.info.title;
  const participants = ['Your code', ...new Set(journey.calls.map((c) => title(c.family)))];
  return {
    participants,
    calls: journey.calls.map((call, index) => {
      const outputs = Object.keys(call.step.outputs ?? {});
      return {
        to: title(call.family),
        request: `${index + 1}. ${call.operationId}`,
        answer: `${expectedStatus(call) ?? 'an answer'}${outputs.length ? `: ${outputs.join(', ')}` : ''}`,
      };
    }),
  };
}

function inputsTable(journey: DocJourney, tenantInputs: Record<string, string>): string {
  const { inputs } = journey;
  const rows = Object.entries(inputs?.properties ?? {}).map(([name, schema]) => {
    const from =
      name in tenantInputs
        ? ` In the console: the new tenant's <code>${esc(tenantInputs[name])}</code>.`
        : name in SANDBOX_INPUTS
          ? ` In the console: the local sandbox's address${SANDBOX_INPUTS[name] ? ` and <code>${esc(SANDBOX_INPUTS[name])}</code>` : ''}.`
          : name === RUN_ID_INPUT
            ? ' In the console: new for each run.'
            : '';
    return `<tr><td><code>${esc(name)}</code></td><td>${esc(schema.type ?? '')}${schema.format ? ` (${esc(schema.format)})` : ''}</td><td>${inputs?.required?.includes(name) ? 'yes' : 'no'}</td><td>${schema.default === undefined ? '' : code(schema.default)}</td><td>${inline(String(schema.description ?? ''))}${from}</td></tr>`;
  });
  if (!rows.length) return '<p>The workflow takes no inputs.</p>';
  return `<div class="table" tabindex="0" role="region" aria-label="Inputs"><table><thead><tr><th>Input</th><th>Type</th><th>Required</th><th>Default</th><th>What it is</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function stepItem(call: DocJourney['calls'][number], index: number, families: SiteFamily[]): string {
  const { site, entry, href } = entryOf(families, call.family, call.operationId);
  const { step } = call;
  const sent = (step.parameters ?? [])
    .filter((p) => p.in)
    .map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}): ${code(p.value)}</li>`);
  const body = step.requestBody
    ? `<p>Body:</p><pre tabindex="0" aria-label="Body of ${esc(step.stepId)}"><code>${esc(JSON.stringify(step.requestBody.payload, null, 2))}</code></pre>`
    : '';
  const criteria = (step.successCriteria ?? []).map((c) => `<li>${code(c.condition)}</li>`).join('');
  const outputs = Object.entries(step.outputs ?? {}).map(
    ([name, expression]) => `<li><code>${esc(name)}</code> = ${code(expression)}</li>`,
  );
  const within =
    call.path.length > 1
      ? ` <span class="note">(in workflow ${esc(call.workflows.slice(1).join(' &gt; '))}, step ${esc(call.path.slice(0, -1).join(' / '))})</span>`
      : '';
  return `<li id="step-${esc(call.path.join('-'))}"><h3>${index + 1}. <code>${esc(step.stepId)}</code>: <a href="${esc(href)}">${esc(call.operationId)}</a> <span class="note">${esc(site.doc.info.title)}</span>${within}</h3>
${prose(step.description)}<p><code>${esc(entry.method.toUpperCase())} ${esc(entry.path)}</code></p>
${sent.length ? `<p>Sends:</p><ul>${sent.join('')}</ul>` : ''}${body}
${criteria ? `<p>Succeeds when:</p><ul>${criteria}</ul>` : ''}${outputs.length ? `<p>Gives the later steps:</p><ul>${outputs.join('')}</ul>` : ''}</li>`;
}

/** Which later steps read each step's outputs: an operation's parameters and body, or a sub-workflow's inputs. */
function dataFlow(journey: DocJourney): string {
  const rows: string[] = [];
  for (const { path, step } of allSteps(journey.library, journey)) {
    const scope = path.slice(0, -1).join(' / ');
    const read = { parameters: step.parameters, requestBody: step.requestBody };
    for (const { stepId, output } of stepReferences(read)) {
      const from = scope ? `${scope} / ${stepId}` : stepId;
      const by = step.workflowId
        ? `workflow ${esc(step.workflowId.split('.').pop())}`
        : esc(step.operationId?.split('.').pop());
      rows.push(
        `<tr><td><code>${esc(from)}</code></td><td><code>${esc(output)}</code></td><td><code>${esc(path.join(' / '))}</code> (${by})</td></tr>`,
      );
    }
  }
  if (!rows.length) return "<p>No step reads another step's outputs.</p>";
  return `<div class="table" tabindex="0" role="region" aria-label="Data between the steps"><table><thead><tr><th>From step</th><th>Output</th><th>Read by</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** The workflow inputs a sandbox tenant gives: those named like a field of createTenant's answer. */
export function tenantInputs(journey: DocJourney, families: SiteFamily[]): Record<string, string> {
  const sandbox = families.find((f) => f.family === 'sandbox');
  const entry = sandbox && listOperations(sandbox.doc).find((e) => e.operationId === 'createTenant');
  const answer = entry && resolveRef(sandbox.doc, entry.operation.responses?.['201']);
  const schema = answer && resolveRef(sandbox.doc, answer.content?.['application/json']?.schema);
  const fields = Object.keys(schema?.properties ?? {});
  return Object.fromEntries(
    Object.keys(journey.inputs.properties ?? {})
      .filter((n) => fields.includes(n))
      .map((n) => [n, n]),
  );
}

/**
 * The journey inputs made from the sandbox's address, as `sandboxTenant` in ./journeys.ts makes them for the
 * journeys' runs (its test holds the two together): by input name, what follows the address.
 */
export const SANDBOX_INPUTS: Record<string, string> = { sandboxUrl: '', receiverUrl: '/sandbox/receivers/accept' };

/** The Arazzo files a journey reads: its own, and those its Arazzo source descriptions name, transitively. */
function filesOf(journey: DocJourney): Library['files'] {
  const files: Library['files'] = {};
  const visit = (name: string) => {
    if (files[name]) return;
    files[name] = journey.library.files[name]!;
    for (const other of Object.values(files[name].workflows)) visit(other);
  };
  visit(journey.file);
  return files;
}

export function journeyConfig(journey: DocJourney, families: SiteFamily[], fresh: FreshFields): JourneyConfig {
  const used = [...new Set(journey.calls.map((c) => c.family))];
  return {
    workflowId: journey.workflow.workflowId,
    title: journeyTitle(journey),
    library: { files: filesOf(journey), operations: journey.library.operations },
    file: journey.file,
    freshInputs: [RUN_ID_INPUT].filter((name) => name in (journey.inputs.properties ?? {})),
    sandboxInputs: Object.fromEntries(
      Object.entries(SANDBOX_INPUTS).filter(([name]) => name in (journey.inputs.properties ?? {})),
    ),
    families: Object.fromEntries(
      used.map((family) => {
        const { doc } = families.find((f) => f.family === family)!;
        return [family, { bundle: `../openapi/${family}.json`, client: consoleClient(family, doc) }];
      }),
    ),
    targets: `../${TARGETS_FILE}`,
    fresh,
    tenantInputs: tenantInputs(journey, families),
  };
}

function nav(journeys: DocJourney[], current: string | undefined, references: ReferenceLink[]): string {
  const items = journeys
    .map(
      (j) =>
        `<li><a href="${esc(j.slug)}.html"${j.slug === current ? ' aria-current="page"' : ''}>${esc(journeyTitle(j))}</a></li>`,
    )
    .join('');
  const refs = references.map((r) => `<li><a href="../${esc(r.page)}">${esc(r.title)}</a></li>`).join('');
  return `<nav class="site" aria-label="Journeys and references">
<h2 id="nav-journeys"><a href="index.html">Journeys</a></h2><ul aria-labelledby="nav-journeys">${items}</ul>
<h2 id="nav-references">References</h2><ul aria-labelledby="nav-references">${refs}</ul>
<h2 id="nav-guides"><a href="../guides/first-call.html">Guides</a></h2>
</nav>`;
}

const page = (title: string, navigation: string, main: string, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} - ramp-api journeys</title><link rel="stylesheet" href="../guides/guides.css"><link rel="stylesheet" href="journeys.css">${head}</head>
<body>
<header><a href="../index.html">ramp-api documentation</a></header>
<div class="layout">
${navigation}
<main>
${main}</main>
</div>
</body></html>
`;

const JOURNEY_CSS = `figure.sequence{margin:12px 0;overflow-x:auto;background:#fff}figure.sequence svg{max-width:none}
ol.steps>li{margin:10px 0 18px}ol.steps h3{font-size:17px;margin:4px 0}#ramp-journey{margin:12px 0}
`;

export function renderJourneyPage(
  journey: DocJourney,
  journeys: DocJourney[],
  families: SiteFamily[],
  references: ReferenceLink[],
  fresh: FreshFields,
): string {
  const title = journeyTitle(journey);
  const { workflow } = journey;
  const { document } = journey.library.files[journey.file]!;
  const diagram = journeyDiagram(journey, families);
  const config = JSON.stringify(journeyConfig(journey, families, fresh)).replace(/</g, '\\u003c');
  const outputs = Object.entries(workflow.outputs ?? {})
    .map(([name, expression]) => `<li><code>${esc(name)}</code> = ${code(expression)}</li>`)
    .join('');
  const main = `<h1>${esc(title)}</h1>
${prose(workflow.description)}
<p class="note">Workflow <code>${esc(workflow.workflowId)}</code> of <span class="file">${esc(journey.path)}</span> (${esc(document.info.title)}, Arazzo ${esc(document.arazzo)}): ${journey.calls.length} calls.</p>
<h2 id="inputs">Inputs</h2>
${inputsTable(journey, tenantInputs(journey, families))}
<h2 id="sequence">The calls in order</h2>
<figure class="sequence">${renderSequenceDiagram(diagram, `Sequence of ${title}`, `seq-${journey.slug}`)}
<figcaption>Each arrow is one call from your code to an API, and the dashed one its answer: the steps below say the same in words.</figcaption></figure>
<h2 id="steps">Steps</h2>
<ol class="steps">${journey.calls.map((call, index) => stepItem(call, index, families)).join('\n')}</ol>
<h2 id="data">Data between the steps</h2>
${dataFlow(journey)}
${outputs ? `<p>The workflow's outputs:</p><ul>${outputs}</ul>` : ''}
<h2 id="run">Run it in the console</h2>
<p>Against the local sandbox (<code>npm start</code>): one click makes a tenant, then sends each step in turn, checks each answer against the description and carries its outputs into the next step; pause before a step to change an input or the request. At the end, the events the sandbox delivered.</p>
<div id="ramp-journey"></div>
<script type="application/json" id="ramp-journey-config">${config}</script><script type="module" src="../${CONSOLE_DIR}/journey.js"></script>
<h2 id="sample">TypeScript</h2>
<p>The journey as one function with the <code>ramp-api</code> clients, generated from the workflow.</p>
<pre tabindex="0" aria-label="TypeScript sample"><code>${esc(journeySample(journey.library, journey, Object.fromEntries(families.map((f) => [f.family, f.doc]))))}</code></pre>
`;
  return page(
    title,
    nav(journeys, journey.slug, references),
    main,
    `<link rel="stylesheet" href="../${CONSOLE_DIR}/console-style.css">`,
  );
}

function renderIndex(journeys: DocJourney[], families: SiteFamily[], references: ReferenceLink[]): string {
  const items = journeys
    .map((j) => {
      const apis = [...new Set(j.calls.map((c) => families.find((f) => f.family === c.family)!.doc.info.title))];
      return `<li><a href="${esc(j.slug)}.html">${esc(journeyTitle(j))}</a>: ${j.calls.length} calls to the ${esc(apis.join(', '))}.</li>`;
    })
    .join('\n');
  const main = `<h1>Journeys</h1>
<p>Each journey is an Arazzo workflow of <span class="file">openapi/workflows/</span>: the calls a team makes, in order, with the data each passes to the next. Each page shows the sequence, the steps, and runs the journey against the local sandbox.</p>
${journeys.length ? `<ul>${items}</ul>` : '<p>No workflow yet.</p>'}`;
  return page('Journeys', nav(journeys, undefined, references), main);
}

/** Writes site/journeys/: its index and a page per workflow. Returns the pages' names. */
export function writeJourneyPages(
  dir: string,
  journeys: DocJourney[],
  families: SiteFamily[],
  references: ReferenceLink[],
  fresh: FreshFields,
): string[] {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'journeys.css'), JOURNEY_CSS);
  writeFileSync(join(dir, 'index.html'), renderIndex(journeys, families, references));
  for (const journey of journeys)
    writeFileSync(join(dir, `${journey.slug}.html`), renderJourneyPage(journey, journeys, families, references, fresh));
  return ['index.html', ...journeys.map((j) => `${j.slug}.html`)];
}
