// Each rule of security.ts fires on its cases (security.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './security.cases.js';
import { RULES } from './security.js';

describe('the rules of security.ts', () => testRuleCases(RULES, CASES));
