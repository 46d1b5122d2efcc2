// ramp-api: typed clients for the Business API and the v1 API.
export { type BusinessClient, createBusinessClient } from './business/index.js';
export type { CallOptions, CallResult, Middleware, MiddlewareCallbackParams, PathCalls } from './core/calls.js';
export {
  type ErrorBody,
  type OperationMethods,
  orThrow,
  type RampClientOptions,
  type SuccessData,
  unwrap,
} from './core/client.js';
export {
  ApiError,
  CallError,
  type CallInfo,
  ConfigurationError,
  NetworkError,
  ParameterError,
  RampApiError,
  RedirectError,
  ResponseFormatError,
  ResponseTooLargeError,
  TimeoutError,
  TokenError,
} from './core/errors.js';
export type { AuthOptions, TokenGrant } from './core/token.js';
export type { Logger, PerRequestOptions, RetryOptions } from './core/transport.js';
export { createSandboxClient, type SandboxClient } from './sandbox/client.js';
export { createV1Client, type V1Client } from './v1/index.js';
