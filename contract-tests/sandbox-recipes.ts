// Against the sandbox (`npm run contract:sandbox`) every documented status is reached by real state instead
// of Prism's Prefer header: for each (operation, status) cell the bundles list, a small named recipe sets up
// state through the control API and sends the request that the service answers with that status.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import type { OpenApiDocument } from '../scripts/openapi/apis.js';
import { type RequestInit, violations } from '../scripts/openapi/requests.js';
import { orThrow } from '../src/client/index.js';
import { listOperations, type OperationEntry } from '../src/client/lookup/index.js';
import type { SandboxClient } from '../src/client/sandbox/client.js';
import { REFUSALS } from '../src/sandbox/core/refusals.js';
import { MAX_DELIVERY_BYTES } from '../src/sandbox/events/store.js';
import { rawExchange } from '../src/testing/raw-http.js';
import { sandboxToken } from '../src/testing/sandbox-users.js';

export type CallResult = { data?: unknown; error?: unknown; response: Response };

export interface RecipeContext {
  doc: OpenApiDocument;
  entry: OperationEntry;
  control: SandboxClient;
  /** The fixture's records (clientId, userId, walletId, webhook_id, ...), by parameter name. */
  params: Record<string, unknown>;
  /** The sandbox's origin. */
  baseUrl: string;
  /** The family's credentials the suite's client signs in with. */
  credentials: Record<string, unknown>;
  /** A conforming request built from the description's examples with the fixture's records. */
  request(): RequestInit;
  /** Sends `init` through the generated client: with the tenant's token, none (`false`) or the one given. */
  send(init: RequestInit, authenticated?: boolean | { token: string }): Promise<CallResult>;
  /** Calls another operation of the same family with the tenant's token (to set up a record the API itself creates). */
  call(operationId: string, init: RequestInit): Promise<CallResult>;
}

export interface Recipe {
  /** What state the recipe sets up and what it sends, shown in the test name. */
  name: string;
  /** The sandbox's `error` code the refusal must carry, so the status comes from the intended rule. */
  reason?: string;
  run(ctx: RecipeContext): Promise<CallResult>;
}

/** A cell no sandbox state can reach, with the reason from the source. */
export interface Unreachable {
  unreachable: string;
}

const isTokenCall = (entry: OperationEntry) => entry.operation.security?.length === 0 && entry.path.endsWith('/token');
const withBody = (init: RequestInit, patch: Record<string, unknown>): RequestInit => ({
  ...init,
  body: { ...(init.body as object), ...patch },
});
const withPath = (init: RequestInit, patch: Record<string, unknown>): RequestInit => ({
  ...init,
  params: { ...init.params, path: { ...init.params.path, ...patch } },
});

const success: Recipe = {
  name: "the fixture's approved user and records, a conforming request",
  run: (ctx) => ctx.send(ctx.request()),
};

/** The first documented constraint of the request broken (a malformed UUID, a missing required field, ...). */
const breaksDescription: Recipe = {
  name: 'a request that breaks the description',
  run: (ctx) => {
    const [violation] = violations(ctx.doc, ctx.entry, ctx.params);
    if (!violation) throw new Error(`${ctx.entry.operationId}: the description has no constraint to break`);
    return ctx.send(violation.init);
  },
};

const otherTenant: Recipe = {
  name: "another tenant's clientId with this tenant's token",
  reason: REFUSALS.forbidden.code,
  run: async (ctx) => {
    const other = await orThrow(ctx.control.createTenant({ body: { name: 'Other tenant' } }));
    return ctx.send(withPath(ctx.request(), { clientId: other.clientId }));
  },
};

/** Business tokens live 5 minutes: one issued, then sandbox time moved past it. */
const expiredToken: Recipe = {
  name: 'a token 5 minutes and 1 second old (advanceClock)',
  run: async (ctx) => {
    const token = await sandboxToken(ctx.baseUrl, 'business', ctx.credentials);
    await orThrow(ctx.control.advanceClock({ body: { seconds: 301 } }));
    return ctx.send(ctx.request(), { token });
  },
};

/** The sandbox's own rate limit (setRateLimit) at 0 calls per window for the operation, lifted after the call. */
const rateLimited: Recipe = {
  name: 'a rate limit of 0 calls per window set with setRateLimit',
  reason: REFUSALS.rateLimited.code,
  run: async (ctx) => {
    const path = { operationId: ctx.entry.operationId };
    await orThrow(ctx.control.setRateLimit({ params: { path }, body: { limit: 0, windowSeconds: 60 } }));
    try {
      return await ctx.send(ctx.request());
    } finally {
      await ctx.control.clearRateLimit({ params: { path } });
    }
  },
};

const familyOf = (entry: OperationEntry): 'business' | 'v1' => (entry.path.startsWith('/api/v1/') ? 'v1' : 'business');

/** A token of the operation's family, fetched now (so that a recipe can send it while the token call would fail). */
const freshToken = (ctx: RecipeContext) => sandboxToken(ctx.baseUrl, familyOf(ctx.entry), ctx.credentials);

/**
 * Sends `init` as raw HTTP, with the body text and content type given (the generated client always sends JSON),
 * with a fresh token of the family unless the operation is public.
 */
async function sendRaw(
  ctx: RecipeContext,
  init: RequestInit,
  body: string,
  contentType: string | undefined,
): Promise<CallResult> {
  const path = ctx.entry.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(init.params.path[name])),
  );
  const query = new URLSearchParams(Object.entries(init.params.query).map(([k, v]) => [k, String(v)])).toString();
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(init.params.header).map(([k, v]) => [k, String(v)]),
  );
  if (contentType) headers['content-type'] = contentType;
  if (ctx.entry.operation.security?.length !== 0) headers.authorization = `Bearer ${await freshToken(ctx)}`;
  const response = await fetch(`${ctx.baseUrl}${path}${query ? `?${query}` : ''}`, {
    method: ctx.entry.method.toUpperCase(),
    headers,
    body,
  });
  const parsed = (await response
    .clone()
    .json()
    .catch(() => undefined)) as unknown;
  return response.ok ? { data: parsed, response } : { error: parsed, response };
}

/** The conforming request's path, with its path parameters filled in. */
const targetOf = (ctx: RecipeContext) =>
  ctx.entry.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(ctx.request().params.path[name])),
  );

/** A raw request (Host and Origin as a browser would send them, which fetch cannot choose), as a CallResult. */
async function sendWithHeaders(
  ctx: RecipeContext,
  headers: Record<string, string>,
  body?: string,
): Promise<CallResult> {
  const answer = await rawExchange(ctx.baseUrl, {
    method: ctx.entry.method.toUpperCase(),
    target: targetOf(ctx),
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const response = new Response(answer.body || null, { status: answer.status, headers: answer.headers });
  const parsed = (() => {
    try {
      return JSON.parse(answer.body) as unknown;
    } catch {
      return undefined;
    }
  })();
  return response.ok ? { data: parsed, response } : { error: parsed, response };
}

/** A page on a domain that resolves to the sandbox (DNS rebinding): its own name as the Host. */
const unknownHost: Recipe = {
  name: 'a Host that is not one of the sandbox`s names (rebind.example.test)',
  reason: 'unknown_host',
  run: (ctx) => sendWithHeaders(ctx, { host: `rebind.example.test:${new URL(ctx.baseUrl).port}` }),
};

/**
 * A write with no body from a page of another local origin (`navigator.sendBeacon`, a `fetch` in `no-cors` mode):
 * refused for its Origin. (A form's content type is refused first, with 415: src/sandbox/http/form-writes.test.ts.)
 */
const crossOrigin: Recipe = {
  name: 'a write with no body from a page on another origin (Origin http://localhost:8000)',
  reason: 'cross_origin',
  run: (ctx) => sendWithHeaders(ctx, { origin: 'http://localhost:8000', 'sec-fetch-site': 'cross-site' }),
};

/** The body of a conforming request, for the recipes that send it in another form. */
const bodyText = (ctx: RecipeContext) =>
  JSON.stringify(isTokenCall(ctx.entry) ? ctx.credentials : (ctx.request().body ?? {}));

/**
 * A JSON body over the most the sandbox reads of any operation (1 MiB, and the receiver's 1 MiB and 16 KiB, the
 * largest delivery it makes): the conforming body with a long extra field.
 */
const tooLarge: Recipe = {
  name: 'a JSON body over 1 MiB',
  reason: REFUSALS.tooLarge.code,
  run: (ctx) => {
    const text = bodyText(ctx);
    return sendRaw(
      ctx,
      ctx.request(),
      `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"padding":"${'x'.repeat(MAX_DELIVERY_BYTES)}"}`,
      'application/json',
    );
  },
};

/** The conforming body, sent as text/plain: not JSON as far as HTTP says. */
const notJson: Recipe = {
  name: 'the conforming body sent with Content-Type: text/plain',
  reason: REFUSALS.unsupportedMediaType.code,
  run: (ctx) => sendRaw(ctx, ctx.request(), bodyText(ctx), 'text/plain'),
};

/**
 * The sandbox's PostgreSQL database refusing connections for the call: `ALLOW_CONNECTIONS false` and its
 * sessions ended, as when the server is stopped or restarting; allowed again afterwards. Only the PostgreSQL
 * run of `npm run contract:sandbox` sets SANDBOX_DATABASE_URL (and the cluster's RAMP_TEST_POSTGRES_URL).
 */
function databaseDown(): Recipe | Unreachable {
  const databaseUrl = process.env.SANDBOX_DATABASE_URL;
  const adminUrl = process.env.RAMP_TEST_POSTGRES_URL;
  if (!databaseUrl || !adminUrl) {
    return {
      unreachable:
        "PGlite runs inside the sandbox's own process and is never down while it answers; the PostgreSQL run reaches this status (and src/sandbox/store/unavailable.postgres.test.ts for every operation of the three bundles)",
    };
  }
  return {
    name: "the sandbox's PostgreSQL database refusing connections (ALLOW_CONNECTIONS false, its sessions ended)",
    reason: REFUSALS.unavailable.code,
    run: async (ctx) => {
      const token = ctx.entry.operation.security?.length === 0 ? undefined : await freshToken(ctx);
      const name = new URL(databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`alter database "${name}" with allow_connections false`);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        const init = isTokenCall(ctx.entry) ? { ...ctx.request(), body: ctx.credentials } : ctx.request();
        const result = await ctx.send(init, token === undefined ? false : { token });
        expect(result.response.headers.get('retry-after'), `${ctx.entry.operationId} 503 without Retry-After`).toMatch(
          /^\d+$/,
        );
        return result;
      } finally {
        await admin.query(`alter database "${name}" with allow_connections true`);
        await admin.end();
        await servingAgain(ctx.baseUrl);
      }
    },
  };
}

/**
 * Waits until the sandbox answers a call that reads its database again (every call on PostgreSQL reads the shared
 * clock), so the next case does not meet a pooled connection the terminated sessions left behind, which the
 * sandbox rightly answers 503 until its pool has dropped it. Bounded: 20 s.
 */
async function servingAgain(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/sandbox/clock`).then(
      async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
      },
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the sandbox still answers ${status} 20 s after its database is back`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Recipes a single operation needs, by operationId and status; the others come from `byStatus`. */
const byOperation: Record<string, Record<string, Recipe | Unreachable>> = {
  deleteWebhook: {
    // Another client's webhook answers 404, as an unknown one: the 403 is the sandbox's refusal of another origin.
    403: crossOrigin,
    200: {
      name: 'a webhook created through the control API, then deleted',
      run: async (ctx) => {
        const hook = await orThrow(
          ctx.control.createBusinessWebhook({
            body: { clientId: String(ctx.params.clientId), url: 'https://hooks.example/delete-me', process: 'ramp' },
          }),
        );
        return ctx.send(withPath(ctx.request(), { webhook_id: hook.id }));
      },
    },
    404: {
      name: 'an unknown webhook ID',
      reason: REFUSALS.notFound.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { webhook_id: randomUUID() })),
    },
  },
  generateKycUrl: {
    400: {
      name: 'a template_id holding a NUL character',
      reason: REFUSALS.invalidRequest.code,
      run: (ctx) =>
        ctx.send({ ...ctx.request(), params: { ...ctx.request().params, query: { template_id: 'kyc\u0000basic' } } }),
    },
    404: {
      name: 'an unknown user ID',
      reason: REFUSALS.notFound.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { user_id: randomUUID() })),
    },
  },
  getCustodyWalletBalance: {
    404: {
      name: 'an unknown wallet ID of the approved user',
      reason: REFUSALS.notFound.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { walletId: randomUUID() })),
    },
  },
  createCustodyWallet: {
    403: {
      name: 'a registered user that is not approved',
      reason: REFUSALS.userNotApproved.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { userId: ctx.params.pendingUserId })),
    },
  },
  createWalletTransfer: {
    200: {
      name: 'a second custody wallet of the same token, the funded fixture wallet as origin',
      run: async (ctx) => {
        const path = { clientId: ctx.params.clientId, userId: ctx.params.userId };
        const opened = await ctx.call('createCustodyWallet', {
          params: { path, query: {}, header: {} },
          body: { token: 'USDC' },
        });
        const destination = (opened.data as { id: string }).id;
        return ctx.send(
          withBody(ctx.request(), { walletOriginId: ctx.params.walletId, walletDestinationId: destination, amount: 1 }),
        );
      },
    },
  },
  createPayout: {
    403: {
      name: 'a user that does not exist',
      reason: REFUSALS.forbidden.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { user_id: randomUUID() })),
    },
    400: {
      name: "insufficient funds: an amount over the user's funded balance",
      reason: REFUSALS.insufficientFunds.code,
      run: (ctx) => ctx.send(withBody(ctx.request(), { amount: 1e13 })),
    },
    422: {
      name: 'destination not accepted: a bank account still in_review',
      reason: REFUSALS.destinationNotApproved.code,
      run: async (ctx) => {
        const account = await orThrow(
          ctx.control.createBankAccount({
            body: { clientId: String(ctx.params.clientId), userId: String(ctx.params.userId) },
          }),
        );
        return ctx.send(withBody(ctx.request(), { destinationId: account.accountId }));
      },
    },
  },
  createOnRamp: {
    400: {
      name: "insufficient funds: an INVERSE on-ramp over the user's COP balance",
      reason: REFUSALS.insufficientFunds.code,
      run: (ctx) => ctx.send(withBody(ctx.request(), { executionMode: 'INVERSE', amount: 1e13 })),
    },
    403: {
      name: 'a user that does not exist',
      reason: REFUSALS.userNotApproved.code,
      run: (ctx) => ctx.send(withPath(ctx.request(), { user_id: randomUUID() })),
    },
    422: {
      name: 'destination not registered: an unknown external wallet',
      reason: REFUSALS.destinationNotRegistered.code,
      run: (ctx) =>
        ctx.send(withBody(ctx.request(), { destination: { type: 'EXTERNAL', externalWalletId: randomUUID() } })),
    },
  },
  createIntegrationEndpoint: {
    409: {
      name: 'the same endpoint name registered twice',
      reason: REFUSALS.nameTaken.code,
      run: async (ctx) => {
        const init = withBody(ctx.request(), { name: `contract-${randomUUID()}` });
        await ctx.send(init);
        return ctx.send(init);
      },
    },
  },
};

/** Recipes by status, chosen by what the operation is (token call or not, business or v1). */
function byStatus(entry: OperationEntry, status: number): Recipe | undefined {
  if (status >= 200 && status < 300 && isTokenCall(entry)) {
    return {
      name: "the tenant's credentials from createTenant",
      run: (ctx) => ctx.send({ ...ctx.request(), body: ctx.credentials }, false),
    };
  }
  if (status >= 200 && status < 300) return success;
  if (status === 401 && isTokenCall(entry)) {
    return {
      name: 'credentials with a wrong secret',
      reason: REFUSALS.invalidCredentials.code,
      run: (ctx) => ctx.send({ ...ctx.request(), body: { ...ctx.credentials, clientSecret: 'not-the-secret' } }, false),
    };
  }
  if (status === 401 && entry.path.startsWith('/api/v1/'))
    return { name: 'no token', run: (ctx) => ctx.send(ctx.request(), false) };
  if (status === 401) return expiredToken;
  if (status === 403 && entry.parameters.some((p) => p.in === 'path' && p.name === 'clientId')) return otherTenant;
  if (status === 403 && entry.method !== 'get') return crossOrigin;
  if (status === 421) return unknownHost;
  if (status === 400 || status === 422) return breaksDescription;
  if (status === 429) return rateLimited;
  if (status === 413) return tooLarge;
  if (status === 415) return notJson;
  return undefined;
}

/** The recipe for a documented cell; undefined when none exists (the run then fails, naming the cell). */
export function recipeFor(entry: OperationEntry, key: string): Recipe | Unreachable | undefined {
  if (key === '503') return databaseDown();
  return byOperation[entry.operationId]?.[key] ?? byStatus(entry, Number(key.replace(/XX$/i, '00')));
}

/** `family operationId status` of every documented cell whose recipe says no sandbox state reaches it, with why. */
export function unreachableCells(docs: { family: string; doc: OpenApiDocument }[]): Map<string, string> {
  const cells = new Map<string, string>();
  for (const { family, doc } of docs) {
    for (const entry of listOperations(doc)) {
      for (const key of Object.keys(entry.operation.responses ?? {})) {
        const recipe = recipeFor(entry, key);
        if (recipe && 'unreachable' in recipe) cells.set(`${family} ${entry.operationId} ${key}`, recipe.unreachable);
      }
    }
  }
  return cells;
}
