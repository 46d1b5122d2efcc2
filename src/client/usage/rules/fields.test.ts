// Each rule of fields.ts fires on its cases (fields.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './fields.cases.js';
import { RULES } from './fields.js';

describe('the rules of fields.ts', () => testRuleCases(RULES, CASES));
