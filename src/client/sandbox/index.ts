// `ramp-api/sandbox`: the typed client of the sandbox's control API. The sandbox itself is the package
// `ramp-api-sandbox` (`npx ramp-api-sandbox`).
export {
  createSandboxClient,
  sandboxOperations,
  type SandboxClient,
  type SandboxClientOptions,
  type sandboxComponents,
  type sandboxOperationTypes,
  type sandboxPaths,
} from './client.js';
