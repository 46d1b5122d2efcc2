// The console's entry in a reference page of the documentation site: reads which API the page documents (a JSON
// block the site's build writes), loads that API's bundle and the local targets `npm start` wrote, and offers a
// "Try" button for the operation Redoc shows (its route, `#/<tag>/<operationid>`), which opens the console
// beside the reference. Redoc's own page is left as it is.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { runtimeSchemaValidator } from '../sandbox/contract/ajv-setup.js';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import { listOperations, type OperationEntry } from '../sandbox/contract/lookup.js';
import { buildRoutesWith, type Route } from '../sandbox/contract/routes.js';
import { Console, type Targets } from './console.js';
import type { ClientInfo } from './samples.js';

/** What the site's build tells the console about the page (scripts/lib/console-build.ts). */
export interface PageConfig {
  family: string;
  /** The bundle's address, relative to the page. */
  bundle: string;
  /** The local targets' file `npm start` writes, relative to the page. */
  targets: string;
  client: ClientInfo;
}

// ajv-formats is CommonJS: its default export, however the bundler presents it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => unknown;

/** The operation Redoc's route names, if any. */
function operationInRoute(operations: OperationEntry[]): OperationEntry | undefined {
  const parts = decodeURIComponent(location.hash).toLowerCase().split('/');
  return operations.find((entry) => parts.includes(entry.operationId.toLowerCase()));
}

function App({
  config,
  doc,
  routes,
  targets,
}: {
  config: PageConfig;
  doc: OpenApiDocument;
  routes: Route[];
  targets: Targets;
}) {
  const operations = listOperations(doc);
  const [entry, setEntry] = useState(() => operationInRoute(operations));
  const [open, setOpen] = useState(false);
  useEffect(() => {
    // Redoc moves between operations with the history API as well as the hash: follow both.
    let last = location.href;
    const follow = () => {
      if (location.href === last) return;
      last = location.href;
      setEntry(operationInRoute(operations));
    };
    addEventListener('hashchange', follow);
    const timer = setInterval(follow, 250);
    return () => {
      removeEventListener('hashchange', follow);
      clearInterval(timer);
    };
  }, []);
  if (!entry) return null;
  const route = routes.find((r) => r.entry.operationId === entry.operationId)!;
  if (!open)
    return (
      <button type="button" class="rc-open" onClick={() => setOpen(true)}>
        Try {entry.operationId} in the console
      </button>
    );
  return (
    <Console
      family={config.family}
      doc={doc}
      entry={entry}
      route={route}
      client={config.client}
      targets={targets}
      onClose={() => setOpen(false)}
    />
  );
}

async function start(): Promise<void> {
  const element = document.getElementById('ramp-console-config');
  if (!element?.textContent) return;
  const config = JSON.parse(element.textContent) as PageConfig;
  const doc = (await (await fetch(config.bundle)).json()) as OpenApiDocument;
  // No targets file: the site is served by something other than npm start; the console then asks for an address.
  const targets = (await fetch(config.targets, { cache: 'no-store' })
    .then((answer) => (answer.ok ? answer.json() : {}))
    .catch(() => ({}))) as Targets;
  const routes = buildRoutesWith([{ family: config.family, doc }], (_family, document) =>
    runtimeSchemaValidator({ Ajv2020, addFormats }, document),
  );
  const host = document.createElement('div');
  host.id = 'ramp-console';
  document.body.append(host);
  render(<App config={config} doc={doc} routes={routes} targets={targets} />, host);
}

void start();
