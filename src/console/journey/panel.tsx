// The journey console's heavy part, loaded when a reader opens it: the routes (with the sandbox's checks) of each
// API the journey calls, built from their bundles, and the local targets `npm start` wrote.
import type { OpenApiDocument } from '../../sandbox/contract/document.js';
import type { Targets } from '../console.js';
import { routesOf } from '../panel.js';
import type { JourneyConfig } from './config.js';
import type { FamilyRoutes } from './transport.js';

/** @public Taken from the module ./index.tsx loads with import(). */
export { JourneyConsole } from './journey-console.js';

export async function loadJourney(
  config: JourneyConfig,
): Promise<{ families: Record<string, FamilyRoutes>; targets: Targets }> {
  const [targets, ...docs] = await Promise.all([
    fetch(config.targets, { cache: 'no-store' })
      .then((answer) => (answer.ok ? answer.json() : {}))
      .catch(() => ({})) as Promise<Targets>,
    ...Object.values(config.families).map((f) =>
      fetch(f.bundle).then((answer) => answer.json() as Promise<OpenApiDocument>),
    ),
  ]);
  const families = Object.fromEntries(
    Object.entries(config.families).map(([family, { client }], index) => [
      family,
      { client, routes: routesOf(family, docs[index]!) },
    ]),
  );
  return { families, targets };
}
