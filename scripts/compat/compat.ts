// `npm run compat`: compares the descriptions with the released baseline in openapi/baseline/ and fails on
// anything that would break a consuming team, or on a family that has no baseline. `--accept [--family NAME]` makes
// the current descriptions the new baseline. `--consumers DIR` reads the consuming teams' usage files (`npx ramp-api
// usage`) and names whom each breaking change breaks or may break; `--fail-on any|consumers|seen` (default any)
// fails on every breaking change, on those that break or may break a known consumer, or only on those seen to break
// one. `--explain ID` prints a rule of the gate. The options and what is done with them: command.ts.
import { bundleAll } from '../openapi/bundle.js';
import { runCompat } from './command.js';

process.exitCode = await runCompat(process.argv.slice(2), {
  bundle: bundleAll,
  log: (text) => console.log(text),
  error: (text) => console.error(text),
});
