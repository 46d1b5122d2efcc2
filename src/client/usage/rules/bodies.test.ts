// Each rule of bodies.ts fires on its cases (bodies.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './bodies.cases.js';
import { RULES } from './bodies.js';

describe('the rules of bodies.ts', () => testRuleCases(RULES, CASES));
