// Each rule of alternatives.ts fires on its cases (alternatives.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './alternatives.cases.js';
import { RULES } from './alternatives.js';

describe('the rules of alternatives.ts', () => testRuleCases(RULES, CASES));
