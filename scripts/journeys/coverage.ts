// Which journey reaches which event and which state, and through which transition: derived from the workflows
// (openapi/workflows/), the sandbox's state tables (src/sandbox/core/states.ts, the `events` of each transition),
// the events the v1 description lists and the trigger values the control API's description declares. Rendered
// into docs/journeys.md by `npm run journeys:table`; `npm test` fails when that file is stale, when an event or a
// state is reached by no journey, or when `triggerEvent` sends an event some transition emits.
import { v1EventNames } from '../../src/client/generated/v1-meta.js';
import type { Transition } from '../../src/sandbox/core/states.js';
import { machines } from '../../src/sandbox/core/states.js';
import type { FlatStep, Journey } from '../../src/sandbox/journeys/runnable.js';
import { readTriggers, type SandboxTrigger } from '../openapi/triggers.js';
import { repoJourneys } from './workflows.js';

export const COVERAGE_FILE = 'docs/journeys.md';

export interface Reach {
  workflow: string;
  file: string;
  step: string;
  /** The transition's trigger (`rejectPayout`), or `triggerEvent` for an event sent on demand. */
  via: string;
  /** The trigger value that made the transition run, if one did. */
  triggerValue?: string;
}

/** The status a step's success criteria expect, if they name one (`$statusCode == 201`). */
function expectedStatus(step: FlatStep): number | undefined {
  for (const { condition } of step.step.successCriteria ?? []) {
    const match = /^\$statusCode == (\d{3})$/.exec(condition.trim());
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** The step's request values by field name (body fields and parameters), `$inputs.x` resolved where literal. */
function requestValues(step: FlatStep): Record<string, unknown> {
  const payload = step.step.requestBody?.payload;
  const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const params = Object.fromEntries((step.step.parameters ?? []).map((p) => [p.name, p.value]));
  const resolve = (v: unknown) => (typeof v === 'string' && v.startsWith('$inputs.') ? step.inputs[v.slice(8)] : v);
  return Object.fromEntries(Object.entries({ ...body, ...params }).map(([k, v]) => [k, resolve(v)]));
}

/** The declared trigger whose value the step sends, if any. */
export function triggerOf(step: FlatStep, triggers: SandboxTrigger[]): SandboxTrigger | undefined {
  const values = requestValues(step);
  return triggers.find((t) => {
    if (t.operationId !== step.operationId) return false;
    const value = values[t.field];
    if (t.value !== undefined) return value === t.value;
    return typeof value === 'number' && Math.round(value * 100) % 100 === t.cents;
  });
}

/** The transitions a step runs: its own operation's (in the case its request names), and a trigger value's. */
function transitionsOf(step: FlatStep, triggers: SandboxTrigger[]): { resource: string; t: Transition; by?: string }[] {
  const status = expectedStatus(step);
  if (status !== undefined && status >= 400) return [];
  const mode = requestValues(step).executionMode === 'INVERSE' ? 'INVERSE' : 'NORMAL';
  const found: { resource: string; t: Transition; by?: string }[] = [];
  for (const [resource, machine] of Object.entries(machines)) {
    const own = machine.filter((t) => t.trigger === step.operationId && (t.when === undefined || t.when === mode));
    // A trigger from no state creates the record; from a state, the journey's earlier steps made that state.
    for (const t of own.filter((t) => t.from === null).length ? own.filter((t) => t.from === null) : own)
      found.push({ resource, t });
    // A trigger value runs its transition from the state the step's own transition leads to (or, for an
    // operation with none of its own in this table, such as a KYC link, from whatever state the record is in).
    const trigger = triggerOf(step, triggers);
    if (trigger?.transition)
      for (const t of machine.filter((t) => t.trigger === trigger.transition && t.from !== null))
        if (!own.length || own.some((o) => o.to === t.from)) found.push({ resource, t, by: trigger.name });
  }
  return found;
}

export interface Coverage {
  events: { event: string; reaches: Reach[]; emittedByTransition: boolean }[];
  states: { resource: string; state: string; reaches: Reach[] }[];
  triggers: { trigger: SandboxTrigger; reaches: Reach[] }[];
  journeys: Journey[];
}

export function coverage(list = repoJourneys(), triggers = readTriggers()): Coverage {
  const events = new Map<string, Reach[]>(v1EventNames.map((e) => [e, []]));
  const states = new Map<string, Reach[]>();
  for (const [resource, machine] of Object.entries(machines))
    for (const t of machine) states.set(`${resource}|${t.to}`, states.get(`${resource}|${t.to}`) ?? []);
  const triggerReaches = new Map<string, Reach[]>(triggers.map((t) => [t.name, []]));
  const emitted = new Set<string>(Object.values(machines).flatMap((m) => m.flatMap((t) => t.events)));

  const add = (into: Reach[] | undefined, reach: Reach) => {
    if (into && !into.some((r) => r.workflow === reach.workflow && r.step === reach.step && r.via === reach.via))
      into.push(reach);
  };
  for (const journey of list) {
    for (const step of journey.steps) {
      const base = { workflow: journey.workflow.workflowId, file: journey.file.name, step: step.step.stepId };
      if (step.operationId === 'triggerEvent') {
        const event = requestValues(step).event;
        if (typeof event === 'string') add(events.get(event), { ...base, via: 'triggerEvent' });
      }
      const trigger = triggerOf(step, triggers);
      if (trigger) triggerReaches.get(trigger.name)!.push({ ...base, via: trigger.transition ?? 'refusal' });
      for (const { resource, t, by } of transitionsOf(step, triggers)) {
        const reach: Reach = { ...base, via: t.trigger, ...(by ? { triggerValue: by } : {}) };
        add(states.get(`${resource}|${t.to}`), reach);
        for (const event of t.events) add(events.get(event), reach);
      }
    }
  }
  return {
    events: [...events].map(([event, reaches]) => ({ event, reaches, emittedByTransition: emitted.has(event) })),
    states: [...states].map(([key, reaches]) => {
      const [resource, state] = key.split('|') as [string, string];
      return { resource, state, reaches };
    }),
    triggers: triggers.map((trigger) => ({ trigger, reaches: triggerReaches.get(trigger.name)! })),
    journeys: list,
  };
}

/** What is wrong with the coverage: an event or a state no journey reaches, a triggerEvent a transition emits. */
export function coverageProblems(c: Coverage): string[] {
  return [
    ...c.events.filter((e) => !e.reaches.length).map((e) => `no journey reaches the event ${e.event}`),
    ...c.states.filter((s) => !s.reaches.length).map((s) => `no journey reaches the state ${s.resource} ${s.state}`),
    ...c.events.flatMap((e) =>
      e.emittedByTransition
        ? e.reaches
            .filter((r) => r.via === 'triggerEvent')
            .map((r) => `${r.workflow}.${r.step} sends ${e.event} with triggerEvent, but a transition emits it`)
        : [],
    ),
    ...c.triggers.filter((t) => !t.reaches.length).map((t) => `no journey sends the trigger value ${t.trigger.name}`),
  ];
}

const first = (reaches: Reach[], n = 3) => {
  const shown = reaches.slice(0, n).map((r) => {
    const how = r.via === 'triggerEvent' ? '`triggerEvent` (no transition emits it)' : `\`${r.via}\``;
    return `\`${r.workflow}\` (step \`${r.step}\`, ${how}${r.triggerValue ? `, trigger value \`${r.triggerValue}\`` : ''})`;
  });
  return reaches.length > n ? `${shown.join('; ')}; and ${reaches.length - n} more` : shown.join('; ');
};

export function coverageMarkdown(c: Coverage): string {
  const lines = [
    '# Journeys and what they reach',
    '',
    '<!-- Generated by scripts/journeys/coverage-command.ts from openapi/workflows/, the sandbox state tables and the descriptions. Do not edit by hand: run `npm run journeys:table`. -->',
    '',
    'Every journey is an Arazzo 1.0 workflow in [`openapi/workflows/`](../openapi/workflows/), run by `redocly respect` against',
    'the sandbox in `npm test` (on PGlite and on PostgreSQL). **service**: every step is a Business or v1 operation, so',
    'the journey also runs unchanged against a deployment (`npm run journeys -- --target deployment`); **sandbox**: it',
    "uses the sandbox's control API (records the service's API cannot make, outcomes the service decides on its own) or",
    'its trigger values, and runs against the sandbox only.',
    '',
    '## Journeys',
    '',
    '| File | Workflow | Kind | What it does |',
    '| --- | --- | --- | --- |',
    ...c.journeys.map(
      (j) => `| \`${j.file.name}\` | \`${j.workflow.workflowId}\` | ${j.kind} | ${j.workflow.summary ?? ''} |`,
    ),
    '',
    '## Events',
    '',
    'Each of the events the v1 description lists, reached through the transition that emits it (the sandbox state',
    "tables), or, for an event no transition emits, sent with the control API's `triggerEvent`.",
    '',
    '| Event | Reached by (workflow, step, transition) |',
    '| --- | --- |',
    ...c.events.map((e) => `| \`${e.event}\` | ${first(e.reaches) || '**none**'} |`),
    '',
    '## States',
    '',
    "Each state of the sandbox state tables (those the source names and the sandbox's own), reached by the transition",
    'that leads to it.',
    '',
    '| Resource | State | Reached by (workflow, step, transition) |',
    '| --- | --- | --- |',
    ...c.states.map((s) => `| ${s.resource} | \`${s.state}\` | ${first(s.reaches) || '**none**'} |`),
    '',
    '## Trigger values',
    '',
    "Each trigger value the control API's description declares (`x-sandbox-triggers`, `ramp-api/triggers`), sent by a",
    'journey through the ordinary API; the table of values is in [The sandbox in tests](guides/sandbox-in-tests.md#reaching-each-outcome).',
    '',
    '| Constant | Operation | Sent by |',
    '| --- | --- | --- |',
    ...c.triggers.map(
      (t) =>
        `| \`${t.trigger.name}\` | \`${t.trigger.operationId}\` | ${t.reaches.map((r) => `\`${r.workflow}\` (step \`${r.step}\`)`).join('; ') || '**none**'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
