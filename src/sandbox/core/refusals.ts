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

/**
 * The answer's body, shaped here only: `error` and `message`, and the refusal's details on an operation of the
 * service's families (`family`); the control API's error schema, and an answer given before any operation is
 * known (no `family`), have `error` and `message` only.
 */
export function refusalBody(refusal: Refusal, family?: string): Record<string, unknown> {
  const body = { error: refusal.code, message: refusal.message };
  return family === undefined || family === 'sandbox' ? body : { ...body, ...refusal.details };
}

/** 400 or 422: the status the operation documents for a request that breaks its description. */
export type InvalidStatus = 400 | 422;

/**
 * Every refusal by name: its `code`, where the condition alone decides it its status (`documented`: the status
 * the operation documents for it, which the caller passes), and where there is one the likely next step for
 * whoever met it (`next`), naming the control operation that takes it where one does (`operationId`). Tests,
 * contract recipes and the references' console name refusals from here too.
 */
export const REFUSALS = {
  malformedTarget: { code: 'invalid_request', status: 400 },
  noOperation: { code: 'not_found', status: 404 },
  methodNotAllowed: { code: 'method_not_allowed', status: 405, next: { say: 'use a method the Allow header lists' } },
  unknownHost: {
    code: 'unknown_host',
    status: 421,
    next: { say: 'call the sandbox by the address it printed, or start it with --allowed-hosts' },
  },
  crossOrigin: {
    code: 'cross_origin',
    status: 403,
    next: { say: "start the sandbox with --allowed-origins naming this page's origin" },
  },
  notImplemented: { code: 'not_implemented', status: 501 },
  unauthorized: {
    code: 'unauthorized',
    status: 401,
    next: { say: "sign in with a tenant's credentials of this API family", operationId: 'createTenant' },
  },
  invalidRequest: {
    code: 'invalid_request',
    status: 'documented',
    next: { say: 'fix the request where the message says, as the description gives it' },
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    status: 415,
    next: { say: 'send the body as JSON with Content-Type: application/json' },
  },
  tooLarge: { code: 'too_large', status: 413, next: { say: 'send a smaller body (at most 1 MiB)' } },
  rateLimited: {
    code: 'rate_limited',
    status: 429,
    next: { say: 'wait the seconds Retry-After gives, or clear the limit', operationId: 'clearRateLimit' },
  },
  unavailable: { code: 'unavailable', status: 503, next: { say: 'retry after the seconds Retry-After gives' } },
  storageFull: {
    code: 'storage_full',
    status: 503,
    next: { say: 'free space on the file system of the --data folder; writes resume by themselves' },
  },
  contractViolation: { code: 'sandbox_contract_violation', status: 500 },
  internal: { code: 'internal', status: 500 },
  notFound: {
    code: 'not_found',
    status: 404,
    next: { say: "check the ID: it must name a record of this tenant (another tenant's answers as unknown)" },
  },
  notLimitable: { code: 'not_limitable', status: 404 },
  forbidden: { code: 'forbidden', status: 403 },
  quotaExceeded: {
    code: 'quota_exceeded',
    status: 403,
    next: { say: 'use a new tenant, or reset this one', operationId: 'createTenant' },
  },
  userNotApproved: {
    code: 'user_not_approved',
    status: 403,
    next: { say: 'approve the user', operationId: 'approveUser' },
  },
  invalidCredentials: {
    code: 'invalid_credentials',
    status: 'documented',
    next: { say: "send a tenant's credentials of this API family", operationId: 'createTenant' },
  },
  invalidIntegration: { code: 'invalid_integration', status: 401 },
  conflict: { code: 'conflict', status: 409, next: { say: 'read the record: its state does not allow this now' } },
  nameTaken: { code: 'name_taken', status: 409, next: { say: 'choose another name' } },
  balanceLimit: { code: 'balance_limit', status: 400 },
  insufficientFunds: {
    code: 'insufficient_funds',
    status: 400,
    next: { say: "credit the user's balance", operationId: 'fundUser' },
  },
  tierLimitExceeded: {
    code: 'tier_limit_exceeded',
    status: 422,
    next: { say: "raise the user's tier limit", operationId: 'setTierLimit' },
  },
  tokenNotSupported: { code: 'token_not_supported', status: 400 },
  invalidDestination: { code: 'invalid_destination', status: 400 },
  destinationNotRegistered: {
    code: 'destination_not_registered',
    status: 422,
    next: { say: 'register the bank account', operationId: 'createBankAccount' },
  },
  destinationNotApproved: {
    code: 'destination_not_approved',
    status: 422,
    next: { say: 'accept the bank account', operationId: 'acceptBankAccount' },
  },
  destinationNotOwned: { code: 'destination_not_owned', status: 422 },
  pairNotEnabled: { code: 'pair_not_enabled', status: 422 },
  unknownBank: { code: 'unknown_bank', status: 422 },
  userExists: { code: 'user_exists', status: 422 },
  endpointNotAllowed: { code: 'endpoint_not_allowed', status: 'documented' },
  receiverFailed: { code: 'receiver_failed', status: 500 },
} as const;

type RefusalName = keyof typeof REFUSALS;

/** The refusal `name`, with the status the operation documents where the catalog leaves it to the operation. */
function refusal(
  name: RefusalName,
  message: string,
  options: { status?: number; details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Refusal {
  const { code, status } = REFUSALS[name];
  if (status === 'documented' && options.status === undefined) throw new Error(`The refusal ${name} needs a status`);
  return new Refusal(
    status === 'documented' ? options.status! : status,
    code,
    message,
    options.details,
    options.headers,
  );
}

export const refusals = {
  // The request path.
  malformedTarget: () => refusal('malformedTarget', 'Malformed request target.'),
  noOperation: (method: string, path: string) =>
    refusal('noOperation', `No operation for ${method.toUpperCase()} ${path}.`),
  /** `allowed`: the methods the path takes, sent as `Allow`. */
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    refusal('methodNotAllowed', `No operation for ${method.toUpperCase()} ${path}; it takes ${allowed.join(', ')}.`, {
      headers: { allow: allowed.join(', ') },
    }),
  /** A Host that is not one of the sandbox's names (DNS rebinding): answered before any route, for every path. */
  unknownHost: (message: string) => refusal('unknownHost', message),
  /** A state-changing request from a web origin the sandbox was not told to trust (a cross-site form, a script). */
  crossOrigin: (message: string) => refusal('crossOrigin', message),
  notImplemented: (operationId: string) => refusal('notImplemented', `The sandbox has no handler for ${operationId}.`),
  unauthorized: (message: string) => refusal('unauthorized', message),
  invalidRequest: (status: number, message: string) => refusal('invalidRequest', message, { status: status }),
  unsupportedMediaType: (message: string) => refusal('unsupportedMediaType', message),
  tooLarge: (message: string) => refusal('tooLarge', message),
  rateLimited: (message: string, retryAfterSeconds: number) =>
    refusal('rateLimited', message, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  unavailable: (message: string, retryAfterSeconds: number) =>
    refusal('unavailable', message, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  /** A write while the data folder's file system is full (../store/disk-space.ts): nothing was stored. */
  storageFull: (message: string, retryAfterSeconds: number) =>
    refusal('storageFull', message, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  contractViolation: (message: string) => refusal('contractViolation', message),
  internal: () => refusal('internal', 'The sandbox failed; see its log.'),
  /** The sandbox's own failing webhook receiver (`receiveDelivery` at `fail`): a broken receiver, on purpose. */
  receiverFailed: () => refusal('receiverFailed', 'This receiver refuses every delivery.'),

  // Records and their owners. A record of another tenant is answered exactly as an unknown one.
  notFound: (message: string) => refusal('notFound', message),
  notLimitable: (message: string) => refusal('notLimitable', message),
  forbidden: (message: string) => refusal('forbidden', message),
  userNotApproved: (message: string) => refusal('userNotApproved', message),
  /** A record past its tenant's quota (../store/quotas.ts): nothing was stored. */
  quotaExceeded: (message: string) => refusal('quotaExceeded', message),

  // Credentials.
  invalidCredentials: (status: InvalidStatus | 401, message: string) =>
    refusal('invalidCredentials', message, { status: status }),
  invalidIntegration: (message: string) => refusal('invalidIntegration', message),

  // States and names already taken.
  conflict: (message: string) => refusal('conflict', message),
  nameTaken: (message: string) => refusal('nameTaken', message),

  // Money. Every balance limit is a 400, as a bad amount is: each operation that can pass one documents a 400.
  balanceLimit: (message: string) => refusal('balanceLimit', message),
  insufficientFunds: (message: string) => refusal('insufficientFunds', message),
  tierLimitExceeded: (message: string, tierEscalation: Record<string, unknown>) =>
    refusal('tierLimitExceeded', message, { details: { tierEscalation } }),

  // What a request names.
  tokenNotSupported: (message: string) => refusal('tokenNotSupported', message),
  invalidDestination: (message: string) => refusal('invalidDestination', message),
  destinationNotRegistered: (message: string) => refusal('destinationNotRegistered', message),
  destinationNotApproved: (message: string) => refusal('destinationNotApproved', message),
  destinationNotOwned: (message: string) => refusal('destinationNotOwned', message),
  pairNotEnabled: (message: string) => refusal('pairNotEnabled', message),
  unknownBank: (message: string) => refusal('unknownBank', message),
  userExists: (message: string) => refusal('userExists', message),
  endpointNotAllowed: (status: InvalidStatus, message: string) =>
    refusal('endpointNotAllowed', message, { status: status }),
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
