// What an answer means for the person who sent it, apart from whether it matches the description: a success, or
// a refusal with its code and the likely next step, read from the sandbox's refusal catalog (one place for both
// the sandbox's refusals and what to do about each).
import { REFUSALS } from '../sandbox/core/refusals.js';

interface NextStep {
  say: string;
  /** The control operation that takes the step, when one does. */
  operationId?: string;
}

export type Outcome =
  | { kind: 'success'; status: number }
  | { kind: 'refused'; status: number; code?: string; message?: string; next?: NextStep };

type CatalogEntry = { code: string; status: number | 'documented'; next?: NextStep };

/** The catalog's next step for `code` answered with `status`: an entry of that status first, else of any. */
function nextStepOf(code: string, status: number): NextStep | undefined {
  const entries = (Object.values(REFUSALS) as CatalogEntry[]).filter((entry) => entry.code === code && entry.next);
  return (entries.find((entry) => entry.status === status) ?? entries.find((entry) => entry.status === 'documented'))
    ?.next;
}

/** The outcome of an answer: a status below 400 is a success; any other is a refusal, named by its body's `error`. */
export function outcomeOf(status: number, bodyText: string): Outcome {
  if (status < 400) return { kind: 'success', status };
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { kind: 'refused', status };
  }
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof record.error === 'string' ? record.error : undefined;
  const message = typeof record.message === 'string' ? record.message : undefined;
  const next = code ? nextStepOf(code, status) : undefined;
  return {
    kind: 'refused',
    status,
    ...(code ? { code } : {}),
    ...(message ? { message } : {}),
    ...(next ? { next } : {}),
  };
}

/** The outcome in one line, as the console shows it. */
export function outcomeLine(outcome: Outcome): string {
  if (outcome.kind === 'success') return `The service accepted the request (${outcome.status}).`;
  return `The service refused: ${outcome.code ?? 'no error code'} (${outcome.status}).`;
}
