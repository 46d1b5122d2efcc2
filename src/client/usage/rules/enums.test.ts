// Each rule of enums.ts fires on its cases (enums.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './enums.cases.js';
import { RULES } from './enums.js';

describe('the rules of enums.ts', () => testRuleCases(RULES, CASES));
