// The journeys reach every event the v1 description lists and every state of the sandbox's state tables,
// each through the transition that emits or leads to it (triggerEvent only for an event no transition emits),
// every trigger value is sent by a journey, and docs/journeys.md says so as it is now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { readTriggers } from '../openapi/triggers.js';
import { COVERAGE_FILE, coverage, coverageMarkdown, coverageProblems } from './coverage.js';
import { repoJourneys as journeys } from './workflows.js';

describe('the journeys', () => {
  const c = coverage();

  it('reach every event and every named state, and send every trigger value', () => {
    expect(coverageProblems(c)).toEqual([]);
    expect(c.events).toHaveLength(15);
  });

  it('fail the check when an event or a state is reached by none (a journey left out)', () => {
    const without = journeys().filter((j) => j.workflow.workflowId !== 'payoutCompleted');
    expect(coverageProblems(coverage(without))).toEqual(
      expect.arrayContaining([
        'no journey reaches the event fiat.payout.completed',
        'no journey reaches the state payout COMPLETED',
      ]),
    );
  });

  it('reach each non-default outcome by its trigger value alone: no control step of that journey runs the outcome', () => {
    const all = journeys();
    for (const { trigger, reaches } of c.triggers) {
      for (const reach of reaches) {
        const journey = all.find((j) => j.workflow.workflowId === reach.workflow)!;
        const forcing = journey.steps.filter(
          (s) => s.source === 'sandbox' && (s.operationId === trigger.transition || s.operationId === 'setTierLimit'),
        );
        expect(
          forcing.map((s) => s.step.stepId),
          `${trigger.name} in ${reach.workflow}`,
        ).toEqual([]);
      }
    }
    expect(c.triggers.map((t) => t.trigger.name)).toEqual(readTriggers().map((t) => t.name));
  });

  it('keep docs/journeys.md current (npm run journeys:table)', () => {
    expect(readFileSync(join(repoRoot, COVERAGE_FILE), 'utf8'), 'run npm run journeys:table').toBe(coverageMarkdown(c));
  });

  it('tell service-only journeys from sandbox ones by their steps', () => {
    const kinds = Object.fromEntries(journeys().map((j) => [j.workflow.workflowId, j.kind]));
    expect(kinds.firstCall).toBe('service');
    expect(kinds.onboarding).toBe('service');
    expect(kinds.payoutCompleted).toBe('sandbox');
    for (const j of journeys().filter((j) => j.kind === 'service'))
      expect(
        j.steps.every((s) => s.source !== 'sandbox'),
        j.workflow.workflowId,
      ).toBe(true);
  });
});
