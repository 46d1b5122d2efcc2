// Every refusal the sandbox can answer, by name: the one place that says which status and code a condition
// gets, and the one place that shapes its body. Handlers and the request path throw these; nothing else writes
// a status/code pair. Where a status depends on what the operation documents (a request that breaks its
// description is a 422 where the operation documents one, else a 400), the caller passes that status.

/** A refusal: the sandbox answers `status` with `{ error: code, message, ...details }`. */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Fields the answer carries beside `error` and `message` (a tier escalation), on the service's families. */
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries (e.g. `retry-after`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The answer's body: the control API's error schema has `error` and `message` only; the service's families take details. */
export function refusalBody(refusal: Refusal, family: string): Record<string, unknown> {
  const body = { error: refusal.code, message: refusal.message };
  return family === 'sandbox' ? body : { ...body, ...refusal.details };
}

/** 400 or 422: the status the operation documents for a request that breaks its description. */
export type InvalidStatus = 400 | 422;

export const refusals = {
  // The request path.
  malformedTarget: () => new Refusal(400, 'invalid_request', 'Malformed request target.'),
  noOperation: (method: string, path: string) =>
    new Refusal(404, 'not_found', `No operation for ${method.toUpperCase()} ${path}.`),
  methodNotAllowed: (method: string, path: string) =>
    new Refusal(405, 'method_not_allowed', `No operation for ${method.toUpperCase()} ${path}.`),
  /** A Host that is not one of the sandbox's names (DNS rebinding): answered before any route, for every path. */
  unknownHost: (message: string) => new Refusal(421, 'unknown_host', message),
  /** A state-changing request from a web origin the sandbox was not told to trust (a cross-site form, a script). */
  crossOrigin: (message: string) => new Refusal(403, 'cross_origin', message),
  notImplemented: (operationId: string) =>
    new Refusal(501, 'not_implemented', `The sandbox has no handler for ${operationId}.`),
  unauthorized: (message: string) => new Refusal(401, 'unauthorized', message),
  invalidRequest: (status: number, message: string) => new Refusal(status, 'invalid_request', message),
  unsupportedMediaType: (message: string) => new Refusal(415, 'unsupported_media_type', message),
  tooLarge: (message: string) => new Refusal(413, 'too_large', message),
  rateLimited: (message: string, retryAfterSeconds: number) =>
    new Refusal(429, 'rate_limited', message, {}, { 'retry-after': String(retryAfterSeconds) }),
  unavailable: (message: string, retryAfterSeconds: number) =>
    new Refusal(503, 'unavailable', message, {}, { 'retry-after': String(retryAfterSeconds) }),
  contractViolation: (message: string) => new Refusal(500, 'sandbox_contract_violation', message),
  internal: () => new Refusal(500, 'internal', 'The sandbox failed; see its log.'),

  // Records and their owners. A record of another tenant is answered exactly as an unknown one.
  notFound: (message: string) => new Refusal(404, 'not_found', message),
  notLimitable: (message: string) => new Refusal(404, 'not_limitable', message),
  forbidden: (message: string) => new Refusal(403, 'forbidden', message),
  userNotApproved: (message: string) => new Refusal(403, 'user_not_approved', message),

  // Credentials.
  invalidCredentials: (status: InvalidStatus | 401, message: string) =>
    new Refusal(status, 'invalid_credentials', message),
  invalidIntegration: (message: string) => new Refusal(401, 'invalid_integration', message),

  // States and names already taken.
  conflict: (message: string) => new Refusal(409, 'conflict', message),
  nameTaken: (message: string) => new Refusal(409, 'name_taken', message),

  // Money. Every balance limit is a 400, as a bad amount is: each operation that can pass one documents a 400.
  balanceLimit: (message: string) => new Refusal(400, 'balance_limit', message),
  insufficientFunds: (message: string) => new Refusal(400, 'insufficient_funds', message),
  invalidAmount: (message: string) => new Refusal(422, 'invalid_amount', message),
  tierLimitExceeded: (message: string, tierEscalation: Record<string, unknown>) =>
    new Refusal(422, 'tier_limit_exceeded', message, { tierEscalation }),

  // What a request names.
  tokenNotSupported: (message: string) => new Refusal(400, 'token_not_supported', message),
  invalidDestination: (message: string) => new Refusal(400, 'invalid_destination', message),
  destinationNotRegistered: (message: string) => new Refusal(422, 'destination_not_registered', message),
  destinationNotApproved: (message: string) => new Refusal(422, 'destination_not_approved', message),
  destinationNotOwned: (message: string) => new Refusal(422, 'destination_not_owned', message),
  pairNotEnabled: (message: string) => new Refusal(422, 'pair_not_enabled', message),
  unknownBank: (message: string) => new Refusal(422, 'unknown_bank', message),
  userExists: (message: string) => new Refusal(422, 'user_exists', message),
  endpointNotAllowed: (status: InvalidStatus, message: string) => new Refusal(status, 'endpoint_not_allowed', message),
} as const;

/**
 * A call made with a tenant's own token (rather than the admin token) reaches that tenant's records only: a
 * record of another tenant (`ownerId`, its tenant) is refused exactly as an unknown one, with 404 and the same
 * `message`, before its state is looked at.
 */
export function requireInScope(
  tenant: { id: string } | null,
  ownerId: string | null | undefined,
  message: string,
): void {
  if (tenant && tenant.id !== ownerId) throw refusals.notFound(message);
}

/** Throws `refusal`; an expression, so a lookup can end in `?? refuse(...)`. */
export function refuse(refusal: Refusal): never {
  throw refusal;
}
