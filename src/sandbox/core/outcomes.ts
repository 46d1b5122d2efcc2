// Trigger outcomes (./triggers.ts) at once or after a delay in sandbox time. A delayed one is a row of
// `sandbox_scheduled_outcomes` (store/migrations/0013_scheduled_outcomes.sql) until sandbox time passes its due
// time; then one pass (`applyDueOutcomes`) takes it and runs the same function the immediate trigger runs: the
// control operation's own transition, with its events. The pass runs when advanceClock moves the clock, and on a
// timer (`startOutcomeTimer`), as sandbox time also passes with real time. The pass
// deletes each row it takes (`for update skip locked`), in the transaction that runs the outcome, so an outcome
// runs exactly once even with several instances on one database; one whose record has left the state the
// transition starts from (decided by hand meanwhile) is dropped.

import { sandboxTriggers } from 'ramp-api/triggers';
import { type Db, isDataException, type Sql } from '../store/db.js';
import { isQuotaExceeded, OUTCOME_SETTING } from '../store/quotas.js';
import type { Clock } from './clock.js';
import type { CallContext } from './handler.js';
import { type SandboxLogger, stderrLogger } from './logger.js';
import { runPasses } from './passes.js';
import { Refusal, refusals } from './refusals.js';
import type { SandboxTrigger } from './triggers.js';

/** What a trigger does to the record its request made: the control operation's own function. */
export type Outcome = (ctx: CallContext, recordId: string) => Promise<unknown>;
/** Each trigger's outcome by the operationId whose request carries it (`createPayout`). */
export type Outcomes = Record<string, Outcome>;

/** Runs `outcome` on `recordId` now, or schedules it `trigger.delaySeconds` of sandbox time from now. */
export async function runOrSchedule(
  ctx: CallContext,
  tenantId: string,
  trigger: SandboxTrigger,
  recordId: string,
  outcome: Outcome,
): Promise<void> {
  if (trigger.delaySeconds === undefined) return void (await outcome(ctx, recordId));
  const due = new Date(ctx.clock.now().getTime() + trigger.delaySeconds * 1000);
  await ctx.sql.query(
    'insert into sandbox_scheduled_outcomes (tenant_id, trigger, record_id, due_at) values ($1, $2, $3, $4)',
    [tenantId, trigger.name, recordId, due.toISOString()],
  );
}

interface DueRow {
  tenant_id: string;
  trigger: string;
  record_id: string;
}

/**
 * Whether an outcome's failure is its own tenant's alone: its record left the state the transition starts from
 * (409) or is gone (404), or another refusal of that record; the tenant is past its quota and the outcomes'
 * allowance; or a value of its record PostgreSQL refuses. Such an outcome is dropped and the pass goes on;
 * anything else (the database down, the disk full) fails the pass, which leaves every outcome for the next.
 */
function failsItsTenantAlone(error: unknown): boolean {
  return error instanceof Refusal || isQuotaExceeded(error) || isDataException(error);
}

/**
 * Runs one due outcome in a savepoint of the pass's transaction, with its tenant's quota charged there and then
 * (the charge is otherwise deferred to the commit: store/migrations/0014_quota_at_commit.sql), so one that fails
 * for its own tenant is undone alone and the pass's other outcomes are kept. Its writes are marked as an
 * outcome's, which its tenant's quota takes with an allowance (store/quotas.ts, OUTCOME_ALLOWANCE): the tenant
 * had room when it scheduled it.
 */
async function applyOne(ctx: CallContext, outcome: Outcome, operationId: string, row: DueRow, logger: SandboxLogger) {
  await ctx.sql.query('savepoint due_outcome');
  try {
    await ctx.sql.query(`select set_config('${OUTCOME_SETTING}', 'on', true)`);
    await outcome({ ...ctx, tenant: null, operationId }, row.record_id);
    await ctx.sql.query('set constraints all immediate');
    await ctx.sql.query('set constraints all deferred');
    await ctx.sql.query(`select set_config('${OUTCOME_SETTING}', 'off', true)`);
    await ctx.sql.query('release savepoint due_outcome');
  } catch (error) {
    if (!failsItsTenantAlone(error)) throw error;
    await ctx.sql.query('rollback to savepoint due_outcome');
    await ctx.sql.query('release savepoint due_outcome');
    // A record decided meanwhile (409) or gone (404) is the usual case, nothing to say; the rest is the operator's.
    if (!(error instanceof Refusal && (error.status === 409 || error.status === 404)))
      logger.error(
        `[sandbox] the delayed outcome ${row.trigger} of tenant ${row.tenant_id} (record ${row.record_id}) was refused and dropped: ${isQuotaExceeded(error) ? 'the tenant is over its quota and the allowance for outcomes' : (error as Error).message}`,
      );
  }
}

/** Seconds a client is told to wait (`Retry-After`) when a pass of outcomes is cut short by the sandbox stopping. */
const STOPPING_RETRY_AFTER_SECONDS = 5;

/**
 * Runs every scheduled outcome due by sandbox time now (the `limit` earliest, when given), inside the caller's
 * transaction, each once. The outcome runs with the control API's reach (every tenant's records): sandbox time
 * is one for all tenants. One that fails for its own tenant (applyOne) is dropped alone, said to `logger`: no
 * tenant's state stops another's outcomes. Once the sandbox is asked to stop, the pass throws before its next
 * outcome, so its transaction is undone and every outcome it took waits for the next start. How many it took.
 */
export async function applyDueOutcomes(
  ctx: CallContext,
  outcomes: Outcomes,
  logger: SandboxLogger = stderrLogger(),
  limit?: number,
): Promise<number> {
  const due = await ctx.sql.query<DueRow>(
    `delete from sandbox_scheduled_outcomes where id in
       (select id from sandbox_scheduled_outcomes where due_at <= $1 order by due_at, id
        ${limit === undefined ? '' : `limit ${Math.floor(limit)}`} for update skip locked)
     returning tenant_id, trigger, record_id`,
    [ctx.clock.now().toISOString()],
  );
  for (const row of due) {
    if (ctx.instance.stopping.aborted)
      throw refusals.unavailable(
        'The sandbox is stopping: the delayed outcomes due now were not run, and run once it starts again.',
        STOPPING_RETRY_AFTER_SECONDS,
      );
    const trigger = (sandboxTriggers as readonly SandboxTrigger[]).find((t) => t.name === row.trigger);
    const outcome = trigger && outcomes[trigger.operationId];
    if (!outcome) throw new Error(`A scheduled outcome names trigger ${row.trigger}, which has no outcome`);
    await applyOne(ctx, outcome, trigger.transition ?? trigger.operationId, row, logger);
  }
  return due.length;
}

export interface OutcomeTimer {
  /** Runs one pass now; resolves with how many outcomes it took (each run, or dropped for its own tenant). */
  kick(): Promise<number>;
  /** Stops the timer; resolves when a pass under way has ended. */
  close(): Promise<void>;
}

/** Whether an outcome is due by `now`: a plain select, so a pass with nothing due takes no transaction. */
async function anythingDue(db: Db, now: Date): Promise<boolean> {
  const [row] = await db.reads.query<{ due: Date | string | null }>(
    'select min(due_at) as due from sandbox_scheduled_outcomes',
  );
  return !!row && row.due !== null && new Date(row.due).getTime() <= now.getTime();
}

/**
 * The most outcomes one pass of the timer runs in one transaction: the store's other callers get turns between,
 * and each outcome's savepoint stays within the subtransactions PostgreSQL keeps track of cheaply (64).
 */
const OUTCOMES_PER_TRANSACTION = 50;

/**
 * Runs `run` (applyDueOutcomes with the outcomes, at most `limit` of them) in a transaction of `db` every
 * `pollMs` when an outcome is due by sandbox time, so one falls due with real time too, without a control call.
 * Many due at once (after the disk was full, or a restart) run in transactions of OUTCOMES_PER_TRANSACTION, one
 * after another, so reads are answered meanwhile and a stop waits for one transaction at most. Each pass reads
 * the shared clock first (another instance may have advanced it); its claim takes each outcome once across
 * instances. A failing pass is logged once, then its recovery, not each pass.
 */
export function startOutcomeTimer(
  db: Db,
  clock: Clock,
  run: (sql: Sql, limit: number) => Promise<number>,
  options: {
    pollMs?: number;
    logger?: SandboxLogger;
    /** Throws while the store's disk is below its reserve: no outcome runs then (store/disk-space.ts). */
    checkSpace?: () => Promise<void>;
    /** Aborted when the sandbox stops: no further transaction is begun. */
    stopping?: AbortSignal;
  } = {},
): OutcomeTimer {
  const passes = runPasses(
    async () => {
      let taken = 0;
      for (;;) {
        await clock.sync();
        if (options.stopping?.aborted || !(await anythingDue(db, clock.now()))) return taken;
        await options.checkSpace?.();
        const batch = await db.transaction((tx) => run(tx, OUTCOMES_PER_TRANSACTION));
        taken += batch;
        if (batch < OUTCOMES_PER_TRANSACTION) return taken;
      }
    },
    {
      pollMs: options.pollMs ?? 250,
      logger: options.logger ?? stderrLogger(),
      idle: 0,
      failed: (message) => `[sandbox] scheduled outcomes (retrying every pass): ${message}`,
      recovered: '[sandbox] scheduled outcomes: the database answers again.',
    },
  );
  return { kick: passes.kick, close: passes.stop };
}
