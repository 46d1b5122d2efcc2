// Each rule of parameters.ts fires on its cases (parameters.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './parameters.cases.js';
import { RULES } from './parameters.js';

describe('the rules of parameters.ts', () => testRuleCases(RULES, CASES));
