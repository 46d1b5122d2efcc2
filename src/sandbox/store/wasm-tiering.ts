// How V8 compiles PGlite's WebAssembly in the processes that start it and do not live long enough to gain from
// its peak speed: the sandbox command (src/sandbox/cli.ts), the build's snapshot, which runs initdb once
// (scripts/build/build-snapshot.ts), and the test workers (vitest.config.ts). V8 compiles the module with its
// baseline compiler, then recompiles each function that runs a lot with its optimising one, on background threads.
// With V8's default threshold, PostgreSQL's start alone sets off so much of that recompiling that on two cores it
// delays the first answer; a much higher one (a function is recompiled once about 1 GB of its code has run) leaves
// a start to the baseline code, and a sandbox under load reaches the same throughput within seconds. The figures:
// BENCHMARKS.md. The library's `startSandbox` leaves its host's V8 as it is.
import { setFlagsFromString } from 'node:v8';

/** The V8 flag, for a process started with it (a test worker's execArgv). */
export const BASELINE_WASM_FLAG = '--wasm-tiering-budget=1000000000';

/** Sets the flag in this process, before it compiles PGlite's WebAssembly. */
export function favourStartOverPeakSpeed(): void {
  setFlagsFromString(BASELINE_WASM_FLAG);
}
