// This repository's journeys: the Arazzo files of openapi/workflows/, which name the descriptions' sources
// (openapi/<family>/openapi.yaml); the build ships them beside the bundles (scripts/build/build-workflows.ts).
import { join } from 'node:path';
import { readArazzoFiles } from '../../src/sandbox/journeys/arazzo-files.js';
import { journeys } from '../../src/sandbox/journeys/runnable.js';
import { repoRoot } from '../openapi/apis.js';

export const workflowsDir = join(repoRoot, 'openapi', 'workflows');

/** The journeys a runner starts, as this repository's files hold them. */
export const repoJourneys = () => journeys(readArazzoFiles(workflowsDir));
