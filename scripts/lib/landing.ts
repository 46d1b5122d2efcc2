// Renders site/index.html, the landing page for integrating teams, from the bundled descriptions.
import { deliverySchedule } from '../../src/webhooks/schedule.js';
import type { OpenApiDocument } from './apis.js';
import type { InferredItem } from './inferred.js';
import { listOperations } from './openapi-lookup.js';

const esc = (text: unknown) => String(text ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Inline `code` spans of the descriptions, escaped. */
const prose = (text: unknown) =>
  esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>');
/** Redoc's route to an operation or event: `#/<tag slug>/<operationid>`. */
export const redocRoute = (tag: string, operationId: string) => `#/${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${operationId.toLowerCase()}`;
const firstParagraph = (text: unknown) => String(text ?? '').trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');

export interface LandingInput {
  family: string;
  doc: OpenApiDocument;
  page: string;
}

function authSection({ family, doc }: LandingInput): string {
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Record<string, any>>);
  const publicOps = listOperations(doc).filter((o) => o.operation.security?.length === 0);
  return schemes
    .map(([, scheme]) => {
      const lifetime = scheme['x-token-lifetime-seconds'];
      return `<h3>${esc(doc.info.title)}</h3>
<p>${prose(firstParagraph(scheme.description))}</p>
<p><strong>Token lifetime:</strong> ${typeof lifetime === 'number' ? `${lifetime / 60} minutes (${lifetime} s)` : 'not documented; the client renews the token when a call answers 401'}.
Called without a token: ${publicOps.map((o) => `<code>${esc(o.operationId)}</code>`).join(', ') || 'none'}.</p>
<p class="family-note">Client: <code>${family === 'business' ? 'createBusinessClient' : 'createV1Client'}</code> from <code>ramp-api</code>.</p>`;
    })
    .join('\n');
}

function serversTable(inputs: LandingInput[]): string {
  const rows = inputs.flatMap(({ doc }) =>
    ((doc.servers ?? []) as Record<string, any>[]).map((server) => {
      const variables = Object.entries((server.variables ?? {}) as Record<string, any>)
        .map(([name, v]) => `<code>${esc(name)}</code> (placeholder <code>${esc(v.default)}</code>)`)
        .join(', ');
      return `<tr><td>${esc(doc.info.title)}</td><td>${prose(String(server.description).split('.')[0])}</td><td><code>${esc(server.url)}</code></td><td>${variables}</td></tr>`;
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
        return `<tr><td><code>${esc(name)}</code></td><td>${esc(area)}</td><td><a href="${page}${redocRoute(item.post.tags[0], item.post.operationId)}">${esc(item.post.summary ?? name)}</a></td></tr>`;
      });
      return `<p>The service calls an endpoint you registered with <code>createIntegrationEndpoint</code> (direction <code>OUTBOUND</code>, method <code>POST</code>) when its <code>triggerEvent</code> occurs. Payloads are not shown in the source.</p>
<p><strong>Delivery schedule</strong> (computed from the description's defaults): a call that takes longer than <strong>${schedule.timeoutMs} ms</strong> counts as failed; up to <strong>${schedule.calls} calls</strong> in all, retried after ${schedule.retryDelaysMs.map((d) => `<strong>${d / 1000} s</strong>`).join(', ')} (exponential backoff: first delay <code>initial_delay_ms</code>, each next one times <code>multiplier</code>). <code>max_attempts</code> counts the calls, the first one included: the source's limits table gives "Webhook attempts: 3 by default" (its delivery rule says "retried up to max_attempts"; read that way there would be four calls).</p>
<table><thead><tr><th>Event</th><th>Area</th><th>Reference</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    })
    .join('\n');
}

function inferredSection(items: InferredItem[], inputs: LandingInput[]): string {
  const page = (api: string) => inputs.find((i) => i.family === api)?.page ?? '#';
  const rows = items.map(
    (item) => `<tr><td>${esc(item.api)}</td><td><a href="${page(item.api)}">${esc(item.where)}</a></td><td>${esc(item.what.join(', '))}</td><td>${prose(item.why)}</td></tr>`,
  );
  return `<p>Everything below is a guess: the source does not show it, but a description needs it. Each is marked <code>x-inferred</code> in the description and says why in a sentence starting "Inferred:". Confirm these against a real deployment (the contract suite does) before relying on them. ${items.length} items.</p>
<table class="inferred"><thead><tr><th>API</th><th>Where</th><th>What was inferred</th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function renderLanding(inputs: LandingInput[], inferred: InferredItem[]): string {
  const families = inputs
    .map(
      ({ doc, page }) => `<div class="card"><h3><a href="${page}">${esc(doc.info.title)}</a></h3>
<p>${prose(doc.info.summary)}</p><p>${prose(firstParagraph(doc.info.description))}</p>
<p>${listOperations(doc).length} operations${doc.webhooks ? `, ${Object.keys(doc.webhooks).length} events` : ''} &middot; version <code>${esc(doc.info.version)}</code></p></div>`,
    )
    .join('\n');
  const downloads = inputs
    .map(({ family, doc }) => `<li>${esc(doc.info.title)}: <a href="openapi/${family}.yaml">${family}.yaml</a>, <a href="openapi/${family}.json">${family}.json</a></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ramp-api: Business API and v1 API</title>
<style>
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#12355b;color:#fff;padding:28px 40px}header h1{margin:0 0 6px;font-size:28px}header p{margin:0;opacity:.9}
nav{background:#0d2744;padding:8px 40px}nav a{color:#cfe3ff;margin-right:18px;text-decoration:none;font-size:14px}
main{max-width:1100px;margin:0 auto;padding:12px 40px 60px}section{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:8px 24px 18px;margin:22px 0}
h2{font-size:21px;border-bottom:2px solid #e4e8ef;padding-bottom:6px}.cards{display:flex;gap:18px;flex-wrap:wrap}.card{flex:1 1 400px;border:1px solid #dde2ea;border-radius:8px;padding:4px 18px}
table{border-collapse:collapse;width:100%;font-size:14px;margin:8px 0}th,td{border:1px solid #dde2ea;padding:6px 8px;text-align:left;vertical-align:top}th{background:#eef2f7}
th,td{overflow-wrap:anywhere}table.inferred td:first-child,table.inferred th:first-child{white-space:nowrap;overflow-wrap:normal}table.inferred td:nth-child(3){color:#8a4b00;font-weight:600}table.inferred td:nth-child(2){min-width:220px}code{background:#eef2f7;padding:1px 4px;border-radius:3px;font-size:90%}
pre{background:#0f1b2d;color:#e6edf7;padding:12px 16px;border-radius:6px;overflow:auto}pre code{background:none;color:inherit}.note{color:#55606f;font-size:14px}a{color:#0b5cad}
</style></head>
<body>
<header><h1>ramp-api</h1><p>Stablecoin custody and COP ramps for Colombian businesses: the two API families, their typed clients, mocks and contract tests.</p></header>
<nav><a href="#families">API families</a><a href="#addresses">Base addresses</a><a href="#auth">Authentication</a><a href="#events">Events</a><a href="#inferred">Inferred</a><a href="#codegen">Descriptions</a><a href="#mocks">Mocks and contract tests</a></nav>
<main>
<section id="families"><h2>The two API families</h2><div class="cards">${families}</div></section>
<section id="addresses"><h2>Base addresses per environment</h2>${serversTable(inputs)}</section>
<section id="auth"><h2>Authentication and token lifetimes</h2>${inputs.map(authSection).join('\n')}
<p>The TypeScript clients cache tokens, share one token request among concurrent calls, renew a token shortly before it expires, and repeat a request once after a 401. They never repeat a POST or DELETE by themselves.</p></section>
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
<p>Against a real deployment only read operations run unless <code>CONTRACT_ALLOW_WRITES=1</code>; see the README for <code>CONTRACT_PARAMS</code>.</p></section>
</main></body></html>
`;
}
