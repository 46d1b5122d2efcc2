// Each rule of objects.ts fires on its cases (objects.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './objects.cases.js';
import { RULES } from './objects.js';

describe('the rules of objects.ts', () => testRuleCases(RULES, CASES));
