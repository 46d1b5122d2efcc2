// `ramp-api/triggers`: the sandbox's trigger values as named constants (generated from the control API's
// description), for a team's own tests that force an outcome through the ordinary API. The base import
// `ramp-api` does not load them.
export * from '../generated/triggers.js';
