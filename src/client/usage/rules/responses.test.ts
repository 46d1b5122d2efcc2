// Each rule of responses.ts fires on its cases (responses.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe } from 'vitest';
import { testRuleCases } from '../../../testing/compat-cases.js';
import { CASES } from './responses.cases.js';
import { RULES } from './responses.js';

describe('the rules of responses.ts', () => testRuleCases(RULES, CASES));
