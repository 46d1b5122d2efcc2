// The console's entry in a reference page of the documentation site: reads which API the page documents (a JSON
// block the site's build writes, with its operationIds) and offers a "Try" button for the operation Redoc shows
// (its route, `#/<tag>/<operationid>`), which opens the console beside the reference: the panel (./panel.tsx),
// the API's bundle and the local targets `npm start` wrote are loaded then. Redoc's own page is left as it is.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import type { Route } from '../sandbox/contract/router.js';
import type { Targets } from './console.js';
import type { FreshFields } from './fresh.js';
import { operationInHash } from './route.js';
import type { ClientInfo } from './samples.js';

/** What the site's build tells the console about the page (scripts/site/console-build.ts). */
export interface PageConfig {
  family: string;
  /** The bundle's address, relative to the page. */
  bundle: string;
  /** The local targets' file `npm start` writes, relative to the page. */
  targets: string;
  client: ClientInfo;
  /** The operationIds of the API, so that the page finds the one Redoc shows without loading the bundle. */
  operations: string[];
  /** The reference page's address of each control operation a refusal's next step names (the sandbox's catalog). */
  controlLinks?: Record<string, string>;
  /** The body fields each send makes fresh, by operationId (values the descriptions require to be unique). */
  fresh?: FreshFields;
}

type Panel = typeof import('./panel.js');

interface Loaded {
  module: Panel;
  doc: OpenApiDocument;
  routes: readonly Route[];
  targets: Targets;
}

/** The operationId Redoc's route names, if any. */
const operationInRoute = (operationIds: string[]) => operationInHash(location.hash, operationIds);

/** The panel, the bundle and the local targets, fetched when the console is first opened. */
async function load(config: PageConfig): Promise<Loaded> {
  const [module, doc, targets] = await Promise.all([
    import('./panel.js'),
    fetch(config.bundle).then((answer) => answer.json() as Promise<OpenApiDocument>),
    // No targets file: the site is served by something other than npm start; the console then asks for an address.
    fetch(config.targets, { cache: 'no-store' })
      .then((answer) => (answer.ok ? answer.json() : {}))
      .catch(() => ({})) as Promise<Targets>,
  ]);
  return { module, doc, targets, routes: module.routesOf(config.family, doc) };
}

function App({ config }: { config: PageConfig }) {
  const [operationId, setOperationId] = useState(() => operationInRoute(config.operations));
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>();
  const [failed, setFailed] = useState('');
  useEffect(() => {
    // Redoc moves between operations with the history API as well as the hash: follow both.
    let last = location.href;
    const follow = () => {
      if (location.href === last) return;
      last = location.href;
      setOperationId(operationInRoute(config.operations));
    };
    addEventListener('hashchange', follow);
    const timer = setInterval(follow, 250);
    return () => {
      removeEventListener('hashchange', follow);
      clearInterval(timer);
    };
  }, []);
  if (!operationId) return null;
  if (!open || !loaded)
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
              setLoaded(loaded ?? (await load(config)));
              setOpen(true);
            } catch (error) {
              setFailed(`The console could not load: ${(error as Error).message}`);
            }
          }}
        >
          Try {operationId} in the console
        </button>
      </>
    );
  const route = loaded.routes.find((r) => r.entry.operationId === operationId)!;
  const { Console } = loaded.module;
  return (
    <Console
      family={config.family}
      doc={loaded.doc}
      entry={route.entry}
      route={route}
      client={config.client}
      targets={loaded.targets}
      {...(config.controlLinks ? { controlLinks: config.controlLinks } : {})}
      fresh={config.fresh?.[operationId]}
      onClose={() => setOpen(false)}
    />
  );
}

function start(): void {
  const element = document.getElementById('ramp-console-config');
  if (!element?.textContent) return;
  const config = JSON.parse(element.textContent) as PageConfig;
  const host = document.createElement('div');
  host.id = 'ramp-console';
  document.body.append(host);
  render(<App config={config} />, host);
}

start();
