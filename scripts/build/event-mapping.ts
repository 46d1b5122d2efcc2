// Writes the sandbox's event mapping (src/sandbox/events/table.ts, from the state machine tables) into the
// triggerEvent description between its markers. `npm run events:mapping`; `npm test` fails when it is stale (src/sandbox/events/delivery.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { MAPPING_FILE, renderMappingInto } from '../../src/sandbox/events/table.js';

const current = readFileSync(MAPPING_FILE, 'utf8');
const next = renderMappingInto(current);
if (next !== current) writeFileSync(MAPPING_FILE, next);
console.log(next === current ? `${MAPPING_FILE} is current` : `Wrote the event mapping into ${MAPPING_FILE}`);
