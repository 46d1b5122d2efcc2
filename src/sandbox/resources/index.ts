// Every resource's handlers: what the server serves. Their tables are the store's migrations (../store/migrations/).

import { pinnedClock } from '../core/clock.js';
import type { AnyHandler, CallContext, Handlers } from '../core/handler.js';
import type { SandboxLogger } from '../core/logger.js';
import { applyDueOutcomes, type Outcomes } from '../core/outcomes.js';
import { eventHandlers } from '../events/handlers.js';
import * as accounts from './accounts.js';
import * as kyc from './kyc.js';
import * as onramps from './onramps.js';
import * as overview from './overview.js';
import * as payouts from './payouts.js';
import { rateLimitHandlers } from './rate-limits.js';
import * as tenants from './tenants.js';
import * as users from './users.js';
import * as wallets from './wallets.js';
import * as webhooks from './webhooks.js';

const resources = { tenants, users, kyc, wallets, accounts, payouts, onramps, webhooks, overview };

/** Each trigger value's outcome, by the operation whose request carries it (../core/outcomes.ts). */
const outcomes: Outcomes = {
  ...users.outcomes,
  ...kyc.outcomes,
  ...accounts.outcomes,
  ...payouts.outcomes,
  ...onramps.outcomes,
  ...wallets.outcomes,
};

/**
 * Runs every trigger outcome due by sandbox time now (the `limit` earliest, when given), in `ctx`'s transaction
 * (../core/outcomes.ts): time held at the clock's offset `offsetMs` (by default as it is now) for the whole pass,
 * so its events keep their order. How many it took.
 */
export function runDueOutcomes(
  ctx: CallContext,
  options: { offsetMs?: number; logger?: SandboxLogger; limit?: number } = {},
): Promise<number> {
  const clock = pinnedClock(ctx.clock, options.offsetMs ?? ctx.clock.offsetMs);
  return applyDueOutcomes({ ...ctx, clock }, outcomes, options.logger, options.limit);
}

/**
 * advanceClock, then the scheduled trigger outcomes that sandbox time now passes, in the same transaction: when
 * advanceClock answers, what fell due has happened (with its events).
 */
function advancingOutcomes(advanceClock: AnyHandler): AnyHandler {
  return async (ctx) => {
    const answer = await advanceClock(ctx);
    // At the offset this call set, which another call's read of the stored one may have undone meanwhile.
    await runDueOutcomes(ctx, { offsetMs: (answer.body as { offsetSeconds: number }).offsetSeconds * 1000 });
    return answer;
  };
}

/**
 * Every handler by operationId: the resources', the events' and the rate limits' (built for the operations that
 * can be limited: those whose description declares a 429). An operationId handled twice is a mistake.
 */
export function allHandlers(limitable: Set<string>): Handlers {
  const all: Record<string, unknown> = {};
  const groups: [string, Handlers][] = [
    ...Object.entries(resources).map(([name, r]): [string, Handlers] => [name, r.handlers]),
    ['events', eventHandlers],
    ['rate-limits', rateLimitHandlers(limitable)],
  ];
  for (const [name, handlers] of groups) {
    for (const [operationId, handler] of Object.entries(handlers)) {
      if (all[operationId]) throw new Error(`Two handlers for ${operationId} (the second in ${name})`);
      all[operationId] = handler;
    }
  }
  all.advanceClock = advancingOutcomes(all.advanceClock as AnyHandler);
  return all as Handlers;
}
