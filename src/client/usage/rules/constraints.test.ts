// Each rule of constraints.ts fires on its cases (constraints.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './constraints.cases.js';
import { RULES } from './constraints.js';

describe('the rules of constraints.ts', () => testRuleCases(RULES, CASES));
