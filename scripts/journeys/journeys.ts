// `npm run journeys`: the package's `ramp-api-sandbox journeys` (src/sandbox/journeys/command.ts) on this
// repository's workflows (openapi/workflows/, which name the descriptions' sources), with the bundles made current
// before it starts a sandbox of its own.
import { journeysCommand } from '../../src/sandbox/journeys/command.js';
import { bundleAll } from '../openapi/bundle.js';
import { workflowsDir } from './workflows.js';

process.exit(await journeysCommand(process.argv.slice(2), { workflowsDir, beforeSandbox: bundleAll }));
