// Renders site/index.html, the landing page for integrating teams, from the bundled descriptions.

import { listOperations } from '../../src/client/lookup/index.js';
import { deliverySchedule } from '../../src/client/webhooks/schedule.js';
import { escapeHtml } from '../../src/sandbox/http/escape-html.js';
import { type DocJourney, journeyTitle } from '../journeys/journey-docs.js';
import { type OpenApiDocument, SANDBOX_FAMILY } from '../openapi/apis.js';
import type { InferredItem } from '../openapi/inferred.js';
import { searchBox } from './guide-pages.js';
import type { Guide } from './guides.js';
import { clientOf } from './samples.js';

/** Inline `code` spans of the descriptions, escaped. */
const prose = (text: unknown) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>');
/** Redoc's route to an operation or event: `#/<tag slug>/<operationid>`. */
export const redocRoute = (tag: string, operationId: string) =>
  `#/${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${operationId.toLowerCase()}`;
const firstParagraph = (text: unknown) =>
  String(text ?? '')
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ');

export interface LandingInput {
  family: string;
  doc: OpenApiDocument;
  page: string;
}

/** Each operation's security requirements: its own, else the document's. */
const securityOf = (doc: OpenApiDocument, operation: Record<string, any>) =>
  (operation.security ?? doc.security ?? []) as Record<string, unknown>[];

/** `a`, `b` and `c` as code. */
const codes = (names: string[]) => names.map((n) => `<code>${escapeHtml(n)}</code>`).join(', ');

/** One API's security, read from its bundle, and its own client: every scheme, what it opens, and what needs none. */
function authSection({ family, doc }: LandingInput): string {
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Record<string, any>>);
  const operations = listOperations(doc);
  const publicOps = operations.filter((o) => securityOf(doc, o.operation).length === 0).map((o) => o.operationId);
  const secured = operations.filter((o) => securityOf(doc, o.operation).length > 0);
  const client = clientOf(family);
  const rows = schemes.map(([name, scheme]) => {
    const accepting = secured
      .filter((o) => securityOf(doc, o.operation).some((requirement) => name in requirement))
      .map((o) => o.operationId);
    const others = secured.map((o) => o.operationId).filter((id) => !accepting.includes(id));
    const acceptedBy =
      others.length === 0
        ? `every operation that needs a token (${accepting.length})`
        : accepting.length > others.length
          ? `every operation that needs a token (${accepting.length} of ${secured.length}) but ${codes(others)}`
          : codes(accepting) || 'no operation';
    const lifetime = scheme['x-token-lifetime-seconds'];
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${prose(firstParagraph(scheme.description))}${typeof lifetime === 'number' ? ` <strong>Token lifetime:</strong> ${lifetime / 60} minutes (${lifetime} s).` : ''}</td><td>${acceptedBy}</td></tr>`;
  });
  const renewal =
    client.auth === 'credentials'
      ? schemes.some(([, scheme]) => typeof scheme['x-token-lifetime-seconds'] === 'number')
        ? 'The client asks for a token with the credentials you give it and renews it before that lifetime ends.'
        : '<strong>Token lifetime:</strong> not documented; the client renews the token when a call answers 401.'
      : `The client sends the token you give it as <code>${escapeHtml(client.auth)}</code> as it is, and never asks for one.`;
  return `<h3 id="auth-${escapeHtml(family)}">${escapeHtml(doc.info.title)}</h3>
<p class="family-note">Client: <code>${escapeHtml(client.create)}</code> from <code>${escapeHtml(client.from)}</code>.</p>
<table class="security"><thead><tr><th>Security scheme</th><th>What it is</th><th>Accepted by</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p>${renewal} Called without a token: ${codes(publicOps) || 'none'}.</p>`;
}

function serversTable(inputs: LandingInput[]): string {
  const rows = inputs.flatMap(({ doc }) =>
    ((doc.servers ?? []) as Record<string, any>[]).map((server) => {
      const variables = Object.entries((server.variables ?? {}) as Record<string, any>)
        .map(([name, v]) => `<code>${escapeHtml(name)}</code> (placeholder <code>${escapeHtml(v.default)}</code>)`)
        .join(', ');
      return `<tr><td>${escapeHtml(doc.info.title)}</td><td>${prose(String(server.description).split('.')[0])}</td><td><code>${escapeHtml(server.url)}</code></td><td>${variables}</td></tr>`;
    }),
  );
  return `<table><thead><tr><th>API</th><th>Environment</th><th>Base address</th><th>Set</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">The source gives no host names: the base address is a variable you set to the address the service operator gave you (the placeholder hosts end in <code>.invalid</code> on purpose).</p>`;
}

function eventsSection(inputs: LandingInput[]): string {
  const withEvents = inputs.filter((i) => i.doc.webhooks);
  const schedule = deliverySchedule();
  return withEvents
    .map(({ doc, page }) => {
      const rows = Object.entries(doc.webhooks as Record<string, any>).map(([name, item]) => {
        const [area] = name.split('.');
        return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(area)}</td><td><a href="${page}${redocRoute(item.post.tags[0], item.post.operationId)}">${escapeHtml(item.post.summary ?? name)}</a></td></tr>`;
      });
      return `<p>The service calls an endpoint you registered with <code>createIntegrationEndpoint</code> (direction <code>OUTBOUND</code>, method <code>POST</code>) when its <code>triggerEvent</code> occurs. Payloads are not shown in the source.</p>
<p><strong>Delivery schedule</strong> (computed from the description's defaults): a call that takes longer than <strong>${schedule.timeoutMs} ms</strong> counts as failed; up to <strong>${schedule.calls} calls</strong> in all, retried after ${schedule.retryDelaysMs.map((d) => `<strong>${d / 1000} s</strong>`).join(', ')} (exponential backoff: first delay <code>initial_delay_ms</code>, each next one times <code>multiplier</code>). <code>max_attempts</code> counts the calls, the first one included: the source's limits table gives "Webhook attempts: 3 by default" (its delivery rule says "retried up to max_attempts"; read that way there would be four calls).</p>
<table><thead><tr><th>Event</th><th>Area</th><th>Reference</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    })
    .join('\n');
}

/** Cells of a Markdown table row (`\\|` is a pipe inside a cell). */
const tableCells = (line: string) =>
  line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

/** Markdown blocks (paragraphs, and tables with a header row) as HTML, with inline code, bold and italics. */
function blocks(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block
        .trim()
        .split('\n')
        .map((line) => line.trim());
      if (lines.length > 2 && lines.every((line) => line.startsWith('|')) && /^\|[\s|:-]+\|$/.test(lines[1]!)) {
        const [head, , ...body] = lines;
        const row = (line: string, cell: 'th' | 'td') =>
          `<tr>${tableCells(line)
            .map((c) => `<${cell}>${prose(c)}</${cell}>`)
            .join('')}</tr>`;
        return `<table><thead>${row(head!, 'th')}</thead><tbody>${body.map((line) => row(line, 'td')).join('')}</tbody></table>`;
      }
      return `<p>${prose(block.replace(/\s+/g, ' ').trim())}</p>`;
    })
    .join('');
}

function inferredSection(items: InferredItem[], inputs: LandingInput[]): string {
  const page = (api: string) => inputs.find((i) => i.family === api)?.page ?? '#';
  const title = (api: string) => inputs.find((i) => i.family === api)?.doc.info.title ?? api;
  const rows = items.map(
    (item) =>
      `<tr><td>${escapeHtml(item.api)}</td><td><a href="${page(item.api)}">${escapeHtml(item.where)}</a></td><td>${escapeHtml(item.what.join(', '))}</td><td>${blocks(item.why)}</td></tr>`,
  );
  const sandboxNote = items.some((item) => item.api === SANDBOX_FAMILY)
    ? ` Rows of the ${escapeHtml(title(SANDBOX_FAMILY))} (<code>${escapeHtml(SANDBOX_FAMILY)}</code>) are the sandbox's own choices where the source is silent, not claims about the service.`
    : '';
  return `<p>Everything below is a guess: the source does not show it, but a description needs it. Each is marked <code>x-inferred</code> in the description and says why in a sentence starting "Inferred:". Confirm these against a real deployment (the contract suite does) before relying on them.${sandboxNote} ${items.length} items.</p>
<table class="inferred"><thead><tr><th>API</th><th>Where</th><th>What was inferred</th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The guides, each a link named after it with the task it answers, and the search over them. */
function guidesSection(guides: Pick<Guide, 'slug' | 'title' | 'summary'>[]): string {
  const items = guides
    .map((g) => `<li><a href="guides/${escapeHtml(g.slug)}.html">${escapeHtml(g.title)}</a>: ${prose(g.summary)}</li>`)
    .join('\n');
  return `<section id="guides"><h2>Guides</h2><p>One task each, from the first call to a release.</p>
<ul class="guides">${items}</ul>${searchBox('guides/')}</section>`;
}

/** The journeys, each a link to its page with the calls it makes. */
function journeysSection(journeys: DocJourney[]): string {
  const items = journeys
    .map(
      (j) =>
        `<li><a href="journeys/${escapeHtml(j.slug)}.html">${escapeHtml(journeyTitle(j))}</a>: ${j.calls.length} calls</li>`,
    )
    .join('\n');
  return `<section id="journeys" aria-labelledby="journeys-heading"><h2 id="journeys-heading">Journeys</h2><p>The calls a team makes from nothing to an outcome, as Arazzo workflows: each page shows the sequence and the data between the steps, and runs it against the local sandbox. <a href="journeys/index.html">All journeys</a>.</p>
<ul class="guides">${items}</ul></section>`;
}

export function renderLanding(
  inputs: LandingInput[],
  inferred: InferredItem[],
  guides: Pick<Guide, 'slug' | 'title' | 'summary'>[] = [],
  journeys: DocJourney[] = [],
): string {
  const families = inputs
    .map(
      ({ doc, page }) => `<div class="card"><h3><a href="${page}">${escapeHtml(doc.info.title)}</a></h3>
<p>${prose(doc.info.summary)}</p><p>${prose(firstParagraph(doc.info.description))}</p>
<p>${listOperations(doc).length} operations${doc.webhooks ? `, ${Object.keys(doc.webhooks).length} events` : ''} &middot; version <code>${escapeHtml(doc.info.version)}</code></p></div>`,
    )
    .join('\n');
  const downloads = inputs
    .map(
      ({ family, doc }) =>
        `<li>${escapeHtml(doc.info.title)}: <a href="openapi/${family}.yaml">${family}.yaml</a>, <a href="openapi/${family}.json">${family}.json</a></li>`,
    )
    .join('\n');
  const titles = inputs.map(({ doc }) => doc.info.title);
  const serviceCount = inputs.filter((i) => i.family !== SANDBOX_FAMILY).length;
  const sandbox = inputs.find((i) => i.family === SANDBOX_FAMILY);
  const apis = `the service's ${serviceCount === 2 ? 'two' : serviceCount} API families${sandbox ? ` and the ${escapeHtml(sandbox.doc.info.title)} of its local sandbox` : ''}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ramp-api: ${escapeHtml(titles.slice(0, -1).join(', '))}${titles.length > 1 ? ' and ' : ''}${escapeHtml(titles.at(-1))}</title>
<style>
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#12355b;color:#fff;padding:28px 40px}header h1{margin:0 0 6px;font-size:28px}header p{margin:0;opacity:.9}
nav{background:#0d2744;padding:8px 40px}nav a{color:#cfe3ff;margin-right:18px;text-decoration:none;font-size:14px}
main{max-width:1100px;margin:0 auto;padding:12px 40px 60px}section{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:8px 24px 18px;margin:22px 0}
h2{font-size:21px;border-bottom:2px solid #e4e8ef;padding-bottom:6px}.cards{display:flex;gap:18px;flex-wrap:wrap}.card{flex:1 1 400px;border:1px solid #dde2ea;border-radius:8px;padding:4px 18px}
table{border-collapse:collapse;width:100%;font-size:14px;margin:8px 0}th,td{border:1px solid #dde2ea;padding:6px 8px;text-align:left;vertical-align:top}th{background:#eef2f7}
th,td{overflow-wrap:anywhere}table.inferred>*>tr>td:first-child,table.inferred>*>tr>th:first-child{white-space:nowrap;overflow-wrap:normal}table.inferred>tbody>tr>td:nth-child(3){color:#8a4b00;font-weight:600;min-width:110px;width:13%}table.inferred>tbody>tr>td:nth-child(2){min-width:200px;width:20%}table.inferred td p{margin:0 0 6px}table.inferred td table{font-size:12.5px}table.security td:first-child{white-space:nowrap;overflow-wrap:normal}table.inferred td table th,table.inferred td table td{padding:3px 5px}code{background:#eef2f7;padding:1px 4px;border-radius:3px;font-size:90%}
pre{background:#0f1b2d;color:#e6edf7;padding:12px 16px;border-radius:6px;overflow:auto}pre code{background:none;color:inherit}.note{color:#55606f;font-size:14px}a{color:#0b5cad}
ul.guides li{margin:4px 0}form.search{max-width:560px;margin:14px 0}form.search label{display:block;font-weight:600;margin-bottom:4px}form.search input{width:100%;box-sizing:border-box;padding:6px 8px;font:inherit;border:1px solid #8792a2;border-radius:4px}.search-status{font-size:13px;color:#55606f;margin:4px 0}
</style></head>
<body>
<header><h1>ramp-api</h1><p>Stablecoin custody and COP ramps for Colombian businesses: ${apis}, their typed clients, mocks and contract tests.</p></header>
<nav aria-label="Sections">${guides.length ? '<a href="#guides">Guides</a>' : ''}${journeys.length ? '<a href="#journeys">Journeys</a>' : ''}<a href="#families">APIs</a><a href="#addresses">Base addresses</a><a href="#auth">Authentication</a><a href="#events">Events</a><a href="#inferred">Inferred</a><a href="#codegen">Descriptions</a><a href="#mocks">Mocks and contract tests</a></nav>
<main>
${guides.length ? guidesSection(guides) : ''}
${journeys.length ? journeysSection(journeys) : ''}
<section id="families"><h2>The APIs</h2><div class="cards">${families}</div></section>
<section id="addresses"><h2>Base addresses per environment</h2>${serversTable(inputs)}</section>
<section id="auth"><h2>Clients, authentication and token lifetimes</h2>${inputs.map(authSection).join('\n')}
<p>The clients that take credentials (${codes(
    inputs
      .map((i) => clientOf(i.family))
      .filter((c) => c.auth === 'credentials')
      .map((c) => c.create),
  )}) cache tokens, share one token request among concurrent calls, renew a token shortly before it expires, and repeat a request once after a 401. No client repeats a POST or DELETE by itself.</p></section>
<section id="events"><h2>Event catalogue</h2>${eventsSection(inputs)}</section>
<section id="inferred"><h2>What the descriptions infer</h2>${inferredSection(inferred, inputs)}</section>
<section id="codegen"><h2>Descriptions for code generation</h2><p>Single-file OpenAPI 3.1 bundles, for generating clients in other languages:</p><ul>${downloads}</ul></section>
<section id="mocks"><h2>Mocks and the contract suite</h2>
<pre><code>npm ci
npm start               # this site, plus Prism mocks of both APIs on loopback
npm run mock            # only the mocks; prints their addresses
npm test                # everything, including the contract suite against fresh mocks
BUSINESS_API_URL=https://... BUSINESS_API_CREDENTIALS='{...}' npm run contract       # against a real deployment
BUSINESS_API_URL=https://... BUSINESS_API_TOKEN=... npm run contract:proxy          # through prism proxy --errors</code></pre>
<p>Against a real deployment only read operations run unless <code>CONTRACT_ALLOW_WRITES=1</code>; see ${guides.some((g) => g.slug === 'real-deployment') ? '<a href="guides/real-deployment.html#against-a-real-deployment">Check a real deployment</a>' : 'the README'} for <code>CONTRACT_PARAMS</code>.</p></section>
</main></body></html>
`;
}
