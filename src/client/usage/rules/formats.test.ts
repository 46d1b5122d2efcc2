// Each rule of formats.ts fires on its cases (formats.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './formats.cases.js';
import { RULES } from './formats.js';

describe('the rules of formats.ts', () => testRuleCases(RULES, CASES));
