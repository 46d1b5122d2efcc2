// What the site's build tells a journey's page about the journey it runs (scripts/site/journey-pages.ts writes it
// into the page as JSON): the workflow, the Arazzo files it reads, the APIs it calls and how the console fills
// its inputs.

import type { Library } from '../../sandbox/journeys/arazzo.js';
import type { FreshFields } from '../fresh.js';
import type { ClientInfo } from '../samples.js';

export interface JourneyConfig {
  workflowId: string;
  title: string;
  /** The Arazzo files the journey reads, and the file of its workflow. */
  library: Library;
  file: string;
  /** Each family the journey calls: its bundle (relative to the page) and its client. */
  families: Record<string, { bundle: string; client: ClientInfo }>;
  /** The local targets' file `npm start` writes, relative to the page. */
  targets: string;
  fresh: FreshFields;
  /** The workflow inputs a sandbox tenant gives, by input name: the field of createTenant's answer. */
  tenantInputs: Record<string, string>;
  /** The workflow inputs new for each run (`runId`, ../fresh.ts). */
  freshInputs: string[];
  /** The workflow inputs made from the sandbox's address: by input name, the path that follows it. */
  sandboxInputs: Record<string, string>;
}
