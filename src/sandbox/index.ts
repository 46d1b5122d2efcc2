// `ramp-api/sandbox`: the typed control-API client, and the sandbox server itself for tests that start one in-process.
export { createSandboxClient, sandboxOperations, type SandboxClient, type SandboxClientOptions, type sandboxComponents, type sandboxPaths } from './client.js';
export { startSandbox, type Sandbox, type SandboxOptions } from './server.js';
export type { Db, Sql } from './db.js';
