// Each rule of types.ts fires on its cases (types.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './types.cases.js';
import { RULES } from './types.js';

describe('the rules of types.ts', () => testRuleCases(RULES, CASES));
