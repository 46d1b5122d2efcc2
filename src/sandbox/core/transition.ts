// Applies the state tables (./states.ts): the one place that locks a record, checks that its state allows the
// trigger, stores the new state and emits the transition's events, all inside the caller's transaction.
import type { Sql } from '../store/db.js';
import type { CallContext, OperationId } from './handler.js';
import { refusals, requireInScope } from './refusals.js';
import type { Machine, Transition } from './states.js';

/** A resource that has a state table: how its records are found, locked, stored and shown in events. */
export interface Stateful<Row> {
  /** The resource's name in messages ("payout"). */
  name: string;
  machine: Machine;
  /** The message of the 404 for an unknown record (and for a record of another tenant). */
  unknown: string;
  /** Reads the record and locks it for the rest of the transaction (`select ... for update`). */
  lock(sql: Sql, id: string): Promise<Row | undefined>;
  tenantOf(row: Row): string;
  stateOf(row: Row): string;
  /** Stores state `to` on the record. */
  save(sql: Sql, row: Row, to: string): Promise<void>;
  /** The record as its events carry it, once in state `to`. */
  view(row: Row, to: string): Record<string, unknown>;
}

/** The transition `trigger` makes from `from` (for the case `when`), or the 409 naming the states that allow it. */
function transitionFor(
  machine: Machine,
  name: string,
  from: string | null,
  trigger: OperationId,
  when?: string,
): Transition {
  const found = machine.find((t) => t.from === from && t.trigger === trigger && t.when === when);
  if (found) return found;
  const allowed = machine.filter((t) => t.trigger === trigger).map((t) => t.from ?? '(new)');
  throw refusals.conflict(
    `${trigger}: the ${name} is ${from ?? 'new'}; allowed from ${[...new Set(allowed)].join(', ') || 'no state'}.`,
  );
}

async function emitAll(ctx: CallContext, tenantId: string, transition: Transition, data: Record<string, unknown>) {
  for (const event of transition.events) await ctx.instance.events.emit(ctx, tenantId, event, data);
}

/**
 * Makes a record by `trigger` (a transition from no state): `insert` stores it in the state the table gives,
 * then the transition's events are emitted.
 */
export async function createRecord<Row>(
  ctx: CallContext,
  kind: Stateful<Row>,
  trigger: OperationId,
  insert: (to: string) => Promise<Row>,
  when?: string,
): Promise<{ row: Row; transition: Transition }> {
  const transition = transitionFor(kind.machine, kind.name, null, trigger, when);
  const row = await insert(transition.to);
  await emitAll(ctx, kind.tenantOf(row), transition, kind.view(row, transition.to));
  return { row, transition };
}

/**
 * Moves record `id` by `trigger`: locks it, refuses an unknown one (or another tenant's, for a tenant's token)
 * with 404 and a state that does not allow the trigger with 409, runs `effect` (what the transition does
 * besides changing state: a refund, a credit), stores the new state and emits the transition's events.
 */
export async function moveRecord<Row>(
  ctx: CallContext,
  kind: Stateful<Row>,
  id: string,
  trigger: OperationId,
  effect?: (row: Row, transition: Transition) => Promise<void>,
): Promise<{ row: Row; transition: Transition }> {
  const row = await kind.lock(ctx.sql, id);
  if (!row) throw refusals.notFound(kind.unknown);
  requireInScope(ctx.tenant, kind.tenantOf(row), kind.unknown);
  const transition = transitionFor(kind.machine, kind.name, kind.stateOf(row), trigger);
  await effect?.(row, transition);
  await kind.save(ctx.sql, row, transition.to);
  await emitAll(ctx, kind.tenantOf(row), transition, kind.view(row, transition.to));
  return { row, transition };
}
