// Each rule of conditions.ts fires on its cases (conditions.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './conditions.cases.js';
import { RULES } from './conditions.js';

describe('the rules of conditions.ts', () => testRuleCases(RULES, CASES));
