// The journey's steps as the console shows them: each planned call with what became of it (its answer's status,
// the check, the outputs it gave, the request and answer as they went), and the next step's request, which the
// reader may change before it is sent.
import { useState } from 'preact/hooks';
import type { PlannedCall } from '../../sandbox/journeys/arazzo.js';
import type { PreparedCall, StepRecord } from './run.js';
import type { SentStep } from './transport.js';

const key = (path: string[]) => path.join(' / ');

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Sent({ record }: { record: StepRecord & { answer?: SentStep } }) {
  const { answer, failures, outputs } = record;
  return (
    <div class="rj-sent">
      {answer && (
        <p>
          <strong>HTTP {answer.status}</strong>{' '}
          {answer.problems.length === 0
            ? 'Checked: the answer matches the description.'
            : 'Checked: the answer breaks the description.'}
        </p>
      )}
      {failures.length > 0 && (
        <ul class="rc-problems">
          {failures.map((f) => (
            <li>{f}</li>
          ))}
        </ul>
      )}
      {Object.keys(outputs).length > 0 && (
        <p>
          Outputs: <code>{JSON.stringify(outputs)}</code>
        </p>
      )}
      {answer && (
        <details>
          <summary>Request and answer</summary>
          <pre>
            {`${answer.exchange.method} ${answer.exchange.url}${answer.exchange.requestBody ? `\n\n${pretty(answer.exchange.requestBody)}` : ''}\n\nHTTP ${answer.status}\n${pretty(answer.bodyText)}`}
          </pre>
        </details>
      )}
    </div>
  );
}

export function StepList(props: {
  planned: PlannedCall[];
  records: (StepRecord & { answer?: SentStep })[];
  next?: PreparedCall;
  phase: string;
}) {
  return (
    <ol class="rj-steps" aria-label="Steps">
      {props.planned.map((call) => {
        const mine = props.records.filter((r) => key(r.call.stepPath) === key(call.path));
        const last = mine.at(-1);
        const waiting = props.phase === 'paused' && props.next && key(props.next.stepPath) === key(call.path);
        const state = waiting
          ? 'next, paused'
          : !last
            ? 'not sent'
            : last.failures.length === 0
              ? `passed${mine.length > 1 ? ` after ${mine.length} tries` : ''}`
              : 'failed';
        return (
          <li>
            <span>
              <code>{key(call.path)}</code> {call.operationId}: <span class="rj-state">{state}</span>
            </span>
            {last && <Sent record={last} />}
          </li>
        );
      })}
    </ol>
  );
}

/** The next step's request as text fields: its parameters and its body (JSON). */
export function NextStep(props: {
  call: PreparedCall;
  onSend(call: PreparedCall): void;
  onContinue(call: PreparedCall): void;
}) {
  const { call } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [bodyText, setBodyText] = useState<string>();
  const [problem, setProblem] = useState('');
  const fields = (['path', 'query', 'header'] as const).flatMap((where) =>
    Object.entries(call[where]).map(([name, value]) => ({
      where,
      name,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  );
  const edited = (): PreparedCall | undefined => {
    const changed: PreparedCall = structuredClone(call);
    for (const f of fields) {
      const text = values[`${f.where}:${f.name}`];
      if (text !== undefined) (changed[f.where] as Record<string, unknown>)[f.name] = text;
    }
    if (bodyText !== undefined) {
      try {
        changed.body = JSON.parse(bodyText);
      } catch (error) {
        setProblem(`The body is not JSON: ${(error as Error).message}`);
        return undefined;
      }
    }
    return changed;
  };
  return (
    <section class="rj-next" aria-label={`Next step: ${key(call.stepPath)}`}>
      <h3>
        Next: <code>{key(call.stepPath)}</code> ({call.family} {call.operationId})
      </h3>
      {fields.map((f) => (
        <div class="rc-param">
          <label for={`rj-${f.where}-${f.name}`}>
            {f.name} ({f.where})
          </label>
          <input
            id={`rj-${f.where}-${f.name}`}
            value={values[`${f.where}:${f.name}`] ?? f.value}
            onInput={(e) => setValues((now) => ({ ...now, [`${f.where}:${f.name}`]: e.currentTarget.value }))}
          />
        </div>
      ))}
      {call.body !== undefined && (
        <label class="rc-field">
          Request body (JSON)
          <textarea
            rows={8}
            value={bodyText ?? JSON.stringify(call.body, null, 2)}
            onInput={(e) => setBodyText(e.currentTarget.value)}
          />
        </label>
      )}
      {problem && <p role="alert">{problem}</p>}
      <div class="rc-actions">
        <button
          type="button"
          onClick={() => {
            const changed = edited();
            if (changed) props.onSend(changed);
          }}
        >
          Send this step
        </button>
        <button
          type="button"
          onClick={() => {
            const changed = edited();
            if (changed) props.onContinue(changed);
          }}
        >
          Go on to the end
        </button>
      </div>
    </section>
  );
}
