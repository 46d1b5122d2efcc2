// The journeys' input that is new for each run: the values that must be unique (an endpoint's name) are made from
// it in the workflows (`journey-{$inputs.runId}-...`). The journeys' runner and the docs site's console give it.

/** The name of that input. */
export const RUN_ID_INPUT = 'runId';

/** A new run ID: eight hexadecimal digits (the pattern the journeys' inputs declare). */
export const freshRunId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 8);
