// The changes each rule of defaults.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

export const CASES: RuleCase[] = [
  {
    rule: 'default-changed',
    name: 'a changed default, a notice either way',
    family: 'v1',
    change: (d) => (schemas(d).CreateOnRampRequest.properties.paymentMethod.default = 'NEQUI'),
    line: /createOnRamp.*request body: paymentMethod: default changed from "DAVIPLATA" to "NEQUI"/,
    reverse: 'default-changed',
  },
];
