// A results file of `npm run journeys -- --json FILE` read back for the report: each field checked for the type
// the report takes it for, so that a file made or edited by hand is refused with the field that is wrong (one
// line naming the file), instead of failing somewhere in the report or writing into it what it should not.
/** What is wrong with `value` at `at` (`workflows[0].ms`), or nothing. */
type Check = (value: unknown, at: string) => string | undefined;

const string: Check = (value, at) => (typeof value === 'string' ? undefined : `${at} is not a string`);
const number: Check = (value, at) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : `${at} is not a number`;
const boolean: Check = (value, at) => (typeof value === 'boolean' ? undefined : `${at} is not true or false`);
const oneOf =
  (...allowed: string[]): Check =>
  (value, at) =>
    allowed.includes(value as string) ? undefined : `${at} is not one of ${allowed.join(', ')}`;

/** `2026-11-28T10:00:00.000Z`: what `--json` writes (`Date.toISOString`), or with an offset. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const timestamp: Check = (value, at) =>
  typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : `${at} is not an ISO timestamp`;

const firstProblem = (checks: (() => string | undefined)[]) => {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return undefined;
};

const listOf =
  (item: Check): Check =>
  (value, at) =>
    Array.isArray(value) ? firstProblem(value.map((v, i) => () => item(v, `${at}[${i}]`))) : `${at} is not a list`;

/** An object with `fields`, and `optional` ones that may be absent. */
const object =
  (fields: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (value, at) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at || 'it'} is not an object`;
    const record = value as Record<string, unknown>;
    const path = (key: string) => (at ? `${at}.${key}` : key);
    return firstProblem([
      ...Object.entries(fields).map(
        ([key, check]) =>
          () =>
            check(record[key], path(key)),
      ),
      ...Object.entries(optional).map(
        ([key, check]) =>
          () =>
            record[key] === undefined ? undefined : check(record[key], path(key)),
      ),
    ]);
  };

const status = oneOf('passed', 'failed');
const failedCheck = object({ check: string, message: string }, { condition: string });
const step = object(
  { step: string, workflowId: string, status, ms: number, attempts: number, failed: listOf(failedCheck) },
  { httpStatus: number },
);
const workflow = object(
  { file: string, workflowId: string, status, ms: number, steps: listOf(step) },
  { startedAt: timestamp, error: string },
);
const results = object({
  target: oneOf('sandbox', 'deployment'),
  startedAt: timestamp,
  ms: number,
  ok: boolean,
  workflows: listOf(workflow),
});

/** What makes `value` no run's results (`JourneyResults`): the first field that is wrong, or nothing. */
export const resultsProblem = (value: unknown): string | undefined => results(value, '');
