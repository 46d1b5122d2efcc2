// `ramp-api-sandbox`: the sandbox server, for tests that start one in-process, and its command line. Its
// control API's typed client is `createSandboxClient` from `ramp-api/sandbox`.
export { startSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { runCli } from './cli.js';
export type { SandboxLogger } from './core/logger.js';
export type { Db, Sql } from './store/db.js';
