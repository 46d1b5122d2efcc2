// A journey run as a JUnit XML report (junit-report-builder), for CI's test report: a test suite per workflow
// (`file / workflowId`), a test case per step (`register / v1Token`, class name the workflow), a failure per
// failed step naming the checks that did not hold.
import junitModule, { type Builder } from 'junit-report-builder';
import type { JourneyResults, StepResult, WorkflowResult } from './results.js';

// The package's types declare an ES default export; its CommonJS build exports the builder itself.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;

const seconds = (ms: number) => ms / 1000;

function failureText(step: StepResult): string {
  return step.failed.map((f) => (f.condition ? `${f.condition} does not hold` : `${f.check}: ${f.message}`)).join('; ');
}

/** A suite for `workflow`, started when it started (results written before workflows had a start: the run's). */
function addWorkflow(builder: Builder, workflow: WorkflowResult, startedAt: string) {
  const suite = builder
    .testSuite()
    .name(`${workflow.file} / ${workflow.workflowId}`)
    .timestamp(workflow.startedAt ?? startedAt)
    .time(seconds(workflow.ms))
    .property('file', workflow.file)
    .property('workflowId', workflow.workflowId);
  for (const step of workflow.steps) {
    const testCase = suite
      .testCase()
      .className(`${workflow.workflowId}`)
      .name(step.step)
      .file(workflow.file)
      .time(seconds(step.ms));
    if (step.status === 'failed')
      testCase
        .failure(failureText(step) || 'the step failed', step.failed[0]?.check ?? 'step')
        .standardOutput(step.failed.map((f) => `${f.check}: ${f.message}`).join('\n'));
  }
  // A workflow that failed with no failed step (respect stopped, or never ran it) still fails in the report.
  if (workflow.status === 'failed' && !workflow.steps.some((s) => s.status === 'failed'))
    suite
      .testCase()
      .className(workflow.workflowId)
      .name('(workflow)')
      .file(workflow.file)
      .failure(workflow.error ?? 'the workflow failed', 'workflow');
}

/** The results as JUnit XML text. */
export function junitXml(results: JourneyResults): string {
  const builder = junit.newBuilder().name(`journeys (${results.target})`);
  for (const workflow of results.workflows) addWorkflow(builder, workflow, results.startedAt);
  return builder.build();
}
