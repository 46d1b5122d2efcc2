// Trigger outcomes (./triggers.ts) at once or after a delay in sandbox time. A delayed one is a row of
// `sandbox_scheduled_outcomes` (store/migrations/0013_scheduled_outcomes.sql) until sandbox time passes its due
// time; then one pass (`applyDueOutcomes`, run when advanceClock moves the clock) takes it and runs the same
// function the immediate trigger runs: the control operation's own transition, with its events. The pass
// deletes each row it takes (`for update skip locked`), in the transaction that runs the outcome, so an outcome
// runs exactly once even with several instances on one database; one whose record has left the state the
// transition starts from (decided by hand meanwhile) is dropped.
import type { CallContext } from './handler.js';
import { Refusal } from './refusals.js';
import { sandboxTriggers } from 'ramp-api/triggers';
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
  trigger: string;
  record_id: string;
}

/**
 * Runs every scheduled outcome due by sandbox time now, inside the caller's transaction, each once. The outcome
 * runs with the control API's reach (every tenant's records): sandbox time is one for all tenants.
 */
export async function applyDueOutcomes(ctx: CallContext, outcomes: Outcomes): Promise<number> {
  const due = await ctx.sql.query<DueRow>(
    `delete from sandbox_scheduled_outcomes where id in
       (select id from sandbox_scheduled_outcomes where due_at <= $1 order by due_at, id for update skip locked)
     returning trigger, record_id`,
    [ctx.clock.now().toISOString()],
  );
  let applied = 0;
  for (const row of due) {
    const trigger = (sandboxTriggers as readonly SandboxTrigger[]).find((t) => t.name === row.trigger);
    const outcome = trigger && outcomes[trigger.operationId];
    if (!outcome) throw new Error(`A scheduled outcome names trigger ${row.trigger}, which has no outcome`);
    try {
      await outcome({ ...ctx, tenant: null, operationId: trigger.transition ?? trigger.operationId }, row.record_id);
      applied++;
    } catch (error) {
      // The record left the state the transition starts from (409), or is gone (404): nothing is left to do.
      if (!(error instanceof Refusal && (error.status === 409 || error.status === 404))) throw error;
    }
  }
  return applied;
}
