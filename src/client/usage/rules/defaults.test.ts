// Each rule of defaults.ts fires on its cases (defaults.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './defaults.cases.js';
import { RULES } from './defaults.js';

describe('the rules of defaults.ts', () => testRuleCases(RULES, CASES));
