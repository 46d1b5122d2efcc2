// ramp-api: typed clients for the Business API and the v1 API.
export { createBusinessClient, type BusinessClient } from './business/index.js';
export { createV1Client, type V1Client } from './v1/index.js';
export { createSandboxClient, type SandboxClient } from './sandbox/client.js';
export {
  unwrap,
  orThrow,
  type RampClientOptions,
  type SuccessData,
  type ErrorBody,
  type OperationMethods,
} from './core/client.js';
export type { AuthOptions, TokenGrant } from './core/token.js';
export type { RetryOptions, Logger, PerRequestOptions } from './core/transport.js';
export {
  RampApiError,
  ApiError,
  CallError,
  ConfigurationError,
  NetworkError,
  ParameterError,
  RedirectError,
  ResponseFormatError,
  ResponseTooLargeError,
  TimeoutError,
  TokenError,
  type CallInfo,
} from './core/errors.js';
