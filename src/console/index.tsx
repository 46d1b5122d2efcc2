// The console's entry in a reference page of the documentation site: reads which API the page documents (a JSON
// block the site's build writes), loads that API's bundle and the local targets `npm start` wrote, and offers a
// "Try" button for the operation Redoc shows (its route, `#/<tag>/<operationid>`), which opens the console
// beside the reference (./panel.tsx, loaded then). Redoc's own page is left as it is.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import { listOperations, type OperationEntry } from '../sandbox/contract/lookup.js';
import type { Route } from '../sandbox/contract/routes.js';
import type { Targets } from './console.js';
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

type Panel = typeof import('./panel.js');

/** The operation Redoc's route names, if any. */
function operationInRoute(operations: OperationEntry[]): OperationEntry | undefined {
  const parts = decodeURIComponent(location.hash).toLowerCase().split('/');
  return operations.find((entry) => parts.includes(entry.operationId.toLowerCase()));
}

function App({ config, doc, targets }: { config: PageConfig; doc: OpenApiDocument; targets: Targets }) {
  const operations = listOperations(doc);
  const [entry, setEntry] = useState(() => operationInRoute(operations));
  const [open, setOpen] = useState(false);
  const [panel, setPanel] = useState<{ module: Panel; routes: Route[] }>();
  const [failed, setFailed] = useState('');
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
  if (!open || !panel)
    return (
      <>
        {failed && (
          <p role="alert" class="rc-failed">
            {failed}
          </p>
        )}
        <button
          type="button"
          class="rc-open"
          onClick={async () => {
            try {
              const module = panel?.module ?? (await import('./panel.js'));
              setPanel(panel ?? { module, routes: module.routesOf(config.family, doc) });
              setOpen(true);
            } catch (error) {
              setFailed(`The console could not load: ${(error as Error).message}`);
            }
          }}
        >
          Try {entry.operationId} in the console
        </button>
      </>
    );
  const route = panel.routes.find((r) => r.entry.operationId === entry.operationId)!;
  const { Console } = panel.module;
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
  const host = document.createElement('div');
  host.id = 'ramp-console';
  document.body.append(host);
  render(<App config={config} doc={doc} targets={targets} />, host);
}

void start();
