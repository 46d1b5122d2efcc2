// `ramp-api-sandbox`: `startSandbox`, the sandbox server for tests that start one in-process, with the options
// its command line has (README.md, docs/guides/sandbox-in-tests.md). Its control API's typed client is
// `createSandboxClient` from `ramp-api/sandbox`; the command is `npx ramp-api-sandbox`.
import { type SandboxOptions as AllOptions, type Sandbox as RunningSandbox, startSandbox as start } from './server.js';

/** How to start the sandbox: what its command line's options set (`--memory`, `--port`, `--allowed-hosts`...). */
export type SandboxOptions = Pick<
  AllOptions,
  | 'port'
  | 'host'
  | 'adminToken'
  | 'memory'
  | 'dataDir'
  | 'databaseUrl'
  | 'endpointNetworks'
  | 'connections'
  | 'allowedHosts'
  | 'allowedOrigins'
  | 'publicUrl'
  | 'logger'
>;

/** A running sandbox: its address, the address of its control API's reference, and how to stop it. */
export type Sandbox = Pick<RunningSandbox, 'url' | 'docsUrl' | 'close'>;

/** Starts a sandbox; resolves once it serves. */
export const startSandbox: (options?: SandboxOptions) => Promise<Sandbox> = start;
export type { SandboxLogger } from './core/logger.js';
