// The verdict on an answer, in two parts that read apart: whether the answer matches the description (the
// conformance check, ./model.ts), and what the service did (./outcome.ts): accepted the request, or refused it
// with a code and the likely next step, linked to the control operation that takes it when there is one.
import type { Problem, Verdict } from './model.js';
import { type Outcome, outcomeLine } from './outcome.js';

export interface VerdictProps {
  verdict: Verdict;
  outcome: Outcome;
  /** The reference page's address of each control operation a next step names (from the site's build). */
  controlLinks?: Record<string, string>;
}

export function ProblemList({ problems }: { problems: Problem[] }) {
  return (
    <ul class="rc-problems">
      {problems.map((p) => (
        <li>
          <code>{p.where}</code> {p.message}
        </li>
      ))}
    </ul>
  );
}

export function VerdictView({ verdict, outcome, controlLinks = {} }: VerdictProps) {
  const conforms = verdict.problems.length === 0;
  const next = outcome.kind === 'refused' ? outcome.next : undefined;
  const link = next?.operationId ? controlLinks[next.operationId] : undefined;
  return (
    <>
      <div role="status" aria-label="Conformance" class={conforms ? 'rc-verdict rc-good' : 'rc-verdict rc-bad'}>
        {conforms ? (
          <p>Checked: the answer matches the description (documented {verdict.documented} response).</p>
        ) : (
          <>
            <p>
              Checked: the answer breaks the description
              {verdict.documented ? ` (documented ${verdict.documented} response)` : ''}:
            </p>
            <ProblemList problems={verdict.problems} />
          </>
        )}
      </div>
      <div
        role="status"
        aria-label="Outcome"
        class={outcome.kind === 'success' ? 'rc-outcome rc-accepted' : 'rc-outcome rc-refused'}
      >
        <p>{outcomeLine(outcome)}</p>
        {outcome.kind === 'refused' && outcome.message && <p class="rc-message">{outcome.message}</p>}
        {next && (
          <p>
            Next: {next.say}
            {next.operationId && (
              <> with {link ? <a href={link}>{next.operationId}</a> : <code>{next.operationId}</code>}</>
            )}
            .
          </p>
        )}
      </div>
    </>
  );
}
