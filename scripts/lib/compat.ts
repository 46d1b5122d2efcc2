// The breaking-change rules live in the package ramp-api (src/client/usage/rules.ts), where `npx ramp-api usage
// --check` applies them too: one place for each rule.
export {
  type Change,
  type ChangeLocation,
  compareDocuments,
  renderCompatReport,
} from '../../src/client/usage/rules.js';
