// The journey console: one click makes a sandbox tenant (the control API's createTenant), then sends each step of
// the workflow in turn (./run.ts), each answer checked as the operation console checks it, each step's outputs
// carried into the later ones; the reader can pause before a step, change the workflow's inputs or the step's
// request, and go on; at the end, the events the sandbox delivered for the tenant.
import { useMemo, useRef, useState } from 'preact/hooks';
import { inputsOf, plannedCalls, workflowOf } from '../../sandbox/journeys/arazzo.js';
import { freshRunId } from '../../sandbox/journeys/run-id.js';
import type { Targets } from '../console.js';
import { freshen } from '../fresh.js';
import { makeTenant, type Tenant } from '../tenant.js';
import type { JourneyConfig } from './config.js';
import { Deliveries } from './deliveries.js';
import { type PreparedCall, type Run, type StepRecord, startRun } from './run.js';
import { NextStep, StepList } from './steps.js';
import { type FamilyRoutes, journeyTransport, type SentStep } from './transport.js';

type Phase = 'ready' | 'running' | 'paused' | 'done' | 'failed';

/** The inputs as the reader edits them: text, JSON for anything that is not a string. */
const asText = (value: unknown) =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
function fromText(text: string, schema: Record<string, unknown> | undefined): unknown {
  if (text === '') return undefined;
  if (schema?.type === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface JourneyConsoleProps {
  config: JourneyConfig;
  families: Record<string, FamilyRoutes>;
  targets: Targets;
}

/** The reader's first inputs: each one's default, or the first of its values. */
const initialValues = (properties: Record<string, Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(properties).map(([name, s]) => [name, asText(s.default ?? (s.enum as unknown[])?.[0])]),
  );

/** The run's inputs: the reader's, then those the new tenant and the local sandbox give, and a new run ID. */
function runInputs(
  config: JourneyConfig,
  properties: Record<string, Record<string, unknown>>,
  values: Record<string, string>,
  made: Tenant,
  sandbox: string,
): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(values)) {
    const value = fromText(text, properties[name]);
    if (value !== undefined) inputs[name] = value;
  }
  for (const [name, field] of Object.entries(config.tenantInputs))
    inputs[name] = (made as unknown as Record<string, unknown>)[field];
  for (const [name, path] of Object.entries(config.sandboxInputs)) inputs[name] = `${sandbox}${path}`;
  for (const name of config.freshInputs) inputs[name] = freshRunId();
  return inputs;
}

/** A journey's run as the console drives it: its phase, the steps sent, the one paused before, the tenant. */
function useJourneyRun(options: {
  config: JourneyConfig;
  families: Record<string, FamilyRoutes>;
  sandbox: string | undefined;
  properties: Record<string, Record<string, unknown>>;
  values: Record<string, string>;
  pauseEach: boolean;
}) {
  const { config, families, sandbox, properties, values, pauseEach } = options;
  const [phase, setPhase] = useState<Phase>('ready');
  const [records, setRecords] = useState<StepRecord[]>([]);
  const [next, setNext] = useState<PreparedCall>();
  const [tenant, setTenant] = useState<Tenant>();
  const [message, setMessage] = useState('');
  const [elapsed, setElapsed] = useState<number>();
  const run = useRef<Run | undefined>(undefined);
  const pauseRequested = useRef(false);
  const started = useRef(0);

  /** Sends steps until the run ends, fails, or a pause is asked for; `first` is the call to send first. */
  const go = async (first?: PreparedCall, once = false) => {
    const current = run.current!;
    const transport = journeyTransport(sandbox!, families);
    setPhase('running');
    let call = first ?? current.prepare();
    while (call) {
      const record = await current.send(call, transport);
      setRecords([...current.state.records]);
      if (record.waitMs) await new Promise((resolve) => setTimeout(resolve, record.waitMs));
      call = current.prepare();
      if (call && (once || pauseEach || pauseRequested.current)) {
        pauseRequested.current = false;
        setNext(call);
        return setPhase('paused');
      }
    }
    setNext(undefined);
    setElapsed(performance.now() - started.current);
    setPhase(current.state.done ? 'done' : 'failed');
  };

  const start = async () => {
    if (!sandbox) return;
    setMessage('Making a tenant...');
    setRecords([]);
    started.current = performance.now();
    let made: Tenant;
    try {
      made = await makeTenant(sandbox);
    } catch (error) {
      return setMessage((error as Error).message);
    }
    setTenant(made);
    setMessage('');
    run.current = startRun({
      library: config.library,
      file: config.file,
      workflowId: config.workflowId,
      inputs: runInputs(config, properties, values, made, sandbox),
      freshen: (operation, body) => freshen(body, config.fresh[operation.operationId]),
    });
    pauseRequested.current = false;
    if (pauseEach) {
      const call = run.current.prepare();
      if (call) {
        setNext(call);
        return setPhase('paused');
      }
    }
    await go();
  };

  /** A changed input while paused: the run reads it from the next step on, which is prepared again. */
  const inputChanged = (name: string, text: string) => {
    if (phase !== 'paused' || !run.current) return;
    run.current.inputs[name] = fromText(text, properties[name]);
    setNext(run.current.prepare());
  };

  const requestPause = () => (pauseRequested.current = true);
  const state = run.current?.state;
  return { phase, records, next, tenant, message, elapsed, state, go, start, inputChanged, requestPause };
}

/** @public The journey console, which ./panel.tsx passes on to the page that loads it with import(). */
export function JourneyConsole({ config, families, targets }: JourneyConsoleProps) {
  const { library, file } = config;
  const workflow = workflowOf(library, file, config.workflowId);
  const planned = useMemo(() => plannedCalls(library, { file, workflow }), [workflow]);
  const properties = inputsOf(library, file, workflow).properties ?? {};
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(properties));
  const [pauseEach, setPauseEach] = useState(false);
  const sandbox = targets.sandbox;
  const { phase, records, next, tenant, message, elapsed, state, go, start, inputChanged, requestPause } =
    useJourneyRun({ config, families, sandbox, properties, values, pauseEach });

  const changeInput = (name: string, text: string) => {
    setValues((now) => ({ ...now, [name]: text }));
    inputChanged(name, text);
  };

  return (
    <section class="rc-journey" aria-label={`Journey console: ${config.title}`}>
      <p>
        {sandbox ? (
          <>
            Sends to the local sandbox <code>{sandbox}</code>, as a new tenant made for each run.
          </>
        ) : (
          <span role="alert">No local sandbox: start one with npm start, which serves this site beside it.</span>
        )}
      </p>
      <Inputs
        properties={properties}
        values={values}
        tenantInputs={config.tenantInputs}
        sandboxInputs={config.sandboxInputs}
        tenant={tenant}
        disabled={phase === 'running'}
        onChange={changeInput}
      />
      <label class="rc-field">
        <input type="checkbox" checked={pauseEach} onChange={(e) => setPauseEach(e.currentTarget.checked)} /> Pause
        before each step
      </label>
      <div class="rc-actions">
        <button type="button" disabled={!sandbox || phase === 'running' || phase === 'paused'} onClick={start}>
          {phase === 'ready' ? 'Run the journey' : 'Run the journey again'}
        </button>
        {phase === 'running' && (
          <button type="button" onClick={requestPause}>
            Pause before the next step
          </button>
        )}
      </div>
      {message && <p role="alert">{message}</p>}
      {tenant && (
        <p>
          Tenant <strong>{tenant.name}</strong>, clientId <code>{tenant.clientId}</code>.
        </p>
      )}
      <StepList
        planned={planned}
        records={records as (StepRecord & { answer?: SentStep })[]}
        next={next}
        phase={phase}
      />
      {phase === 'paused' && next && (
        <NextStep
          key={`${next.stepPath.join('/')} ${records.length}`}
          call={next}
          onSend={(call) => go(call, true)}
          onContinue={(call) => go(call)}
        />
      )}
      <Result phase={phase} failed={state?.failed} outputs={state?.outputs} elapsed={elapsed} steps={records.length} />
      {(phase === 'done' || phase === 'failed') && tenant && sandbox && (
        <Deliveries sandbox={sandbox} tenantId={tenant.clientId} />
      )}
    </section>
  );
}

function Inputs(props: {
  properties: Record<string, Record<string, unknown>>;
  values: Record<string, string>;
  tenantInputs: Record<string, string>;
  sandboxInputs: Record<string, string>;
  tenant?: Tenant;
  disabled: boolean;
  onChange(name: string, text: string): void;
}) {
  const names = Object.keys(props.properties);
  if (names.length === 0) return null;
  return (
    <fieldset class="rc-params">
      <legend>Inputs of the workflow</legend>
      {names.map((name) => {
        const schema = props.properties[name]!;
        const id = `rj-input-${name}`;
        if (name in props.tenantInputs)
          return (
            <p class="rc-note">
              <code>{name}</code>: the tenant's <code>{props.tenantInputs[name]}</code>
              {props.tenant ? ', kept in this tab' : ', once the tenant is made'}.
            </p>
          );
        if (name in props.sandboxInputs)
          return (
            <p class="rc-note">
              <code>{name}</code>: the local sandbox's address
              {props.sandboxInputs[name] ? ` and ${props.sandboxInputs[name]}` : ''}.
            </p>
          );
        const description = String(schema.description ?? '');
        return (
          <div class="rc-param">
            <label for={id}>{name}</label>
            {Array.isArray(schema.enum) ? (
              <select
                id={id}
                disabled={props.disabled}
                value={props.values[name]}
                onChange={(e) => props.onChange(name, e.currentTarget.value)}
              >
                {(schema.enum as unknown[]).map((v) => (
                  <option value={asText(v)}>{asText(v)}</option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                disabled={props.disabled}
                value={props.values[name] ?? ''}
                aria-describedby={description ? `${id}-about` : undefined}
                onInput={(e) => props.onChange(name, e.currentTarget.value)}
              />
            )}
            {description && <small id={`${id}-about`}>{description}</small>}
          </div>
        );
      })}
    </fieldset>
  );
}

function Result(props: {
  phase: Phase;
  failed?: string;
  outputs?: Record<string, unknown>;
  elapsed?: number;
  steps: number;
}) {
  if (props.phase !== 'done' && props.phase !== 'failed') return null;
  const time = props.elapsed === undefined ? '' : ` in ${(props.elapsed / 1000).toFixed(1)} s`;
  return (
    <div
      role="status"
      aria-label="Journey result"
      class={props.phase === 'done' ? 'rc-verdict rc-good' : 'rc-verdict rc-bad'}
    >
      {props.phase === 'done' ? (
        <p>
          Journey completed: {props.steps} calls{time}, every answer checked. Outputs:{' '}
          <code>{JSON.stringify(props.outputs)}</code>
        </p>
      ) : (
        <p>Journey stopped: {props.failed}</p>
      )}
    </div>
  );
}
