// `ramp-api/sandbox`: the typed client of the sandbox's control API. The sandbox itself is the package
// `ramp-api-sandbox` (`npx ramp-api-sandbox`).
export {
  checkSandbox,
  createSandboxClient,
  type SandboxClient,
  type SandboxClientOptions,
  type SandboxIdentity,
  type sandboxComponents,
  sandboxOperations,
  type sandboxOperationTypes,
  type sandboxPaths,
} from './client.js';
