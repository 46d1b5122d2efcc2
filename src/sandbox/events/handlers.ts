// The control API's event operations: listEvents, listDeliveries, redeliver, triggerEvent, and the sandbox's
// own webhook receiver (receiveDelivery), which keeps nothing: the delivery log records every call.
import type { Handlers } from '../core/handler.js';
import { refusals, refuse, requireInScope } from '../core/refusals.js';
import type { Sql } from '../store/db.js';

interface DeliveryRow {
  id: string;
  event_id: string;
  event: string;
  tenant_id: string;
  endpoint_kind: string;
  endpoint_id: string;
  url: string;
  status: string;
  next_attempt_at: Date | string | null;
  attempts_log:
    | { attempt: number; time: string; finishedAt: string; outcome: string; httpStatus: number | null }[]
    | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

async function deliveries(sql: Sql, where: string, params: unknown[]) {
  const rows = await sql.query<DeliveryRow>(
    `select d.id, d.event_id, e.event, d.tenant_id, d.endpoint_kind, d.endpoint_id, d.url, d.status, d.next_attempt_at,
            (select json_agg(json_build_object('attempt', a.attempt, 'time', a.started_at, 'finishedAt', a.finished_at, 'outcome', a.outcome, 'httpStatus', a.http_status) order by a.attempt)
               from sandbox_delivery_attempts a where a.delivery_id = d.id) as attempts_log
       from sandbox_deliveries d join sandbox_events e on e.id = d.event_id
      where ${where} order by d.created_at, d.id`,
    params,
  );
  return rows.map((d) => ({
    id: d.id,
    eventId: d.event_id,
    event: d.event,
    tenantId: d.tenant_id,
    endpointKind: d.endpoint_kind,
    endpointId: d.endpoint_id,
    url: d.url,
    status: d.status,
    nextAttemptAt: d.next_attempt_at === null ? null : iso(d.next_attempt_at),
    attempts: (d.attempts_log ?? []).map((a) => ({
      attempt: a.attempt,
      time: iso(a.time),
      finishedAt: iso(a.finishedAt),
      outcome: a.outcome,
      httpStatus: a.httpStatus,
    })),
  }));
}

export const eventHandlers: Handlers = {
  listEvents: async (ctx) => {
    const filters: string[] = ['true'];
    const params: unknown[] = [];
    // A tenant's own token lists that tenant's events only.
    for (const value of [ctx.tenant?.id, ctx.query.tenant]) {
      if (typeof value !== 'string') continue;
      params.push(value);
      filters.push(`tenant_id::text = $${params.length}`);
    }
    const rows = await ctx.sql.query<{ payload: unknown }>(
      `select payload from sandbox_events where ${filters.join(' and ')} order by created_at, seq`,
      params,
    );
    return { status: 200, body: { events: rows.map((r) => r.payload) } };
  },

  listDeliveries: async (ctx) => {
    const filters: string[] = ['true'];
    const params: unknown[] = [];
    // A tenant's own token lists that tenant's deliveries only.
    if (ctx.tenant) {
      params.push(ctx.tenant.id);
      filters.push(`d.tenant_id::text = $${params.length}`);
    }
    for (const [name, column] of [
      ['tenant', 'd.tenant_id::text'],
      ['event', 'e.event'],
      ['endpoint', 'd.endpoint_id::text'],
    ] as const) {
      if (typeof ctx.query[name] === 'string') {
        params.push(ctx.query[name]);
        filters.push(`${column} = $${params.length}`);
      }
    }
    return { status: 200, body: { deliveries: await deliveries(ctx.sql, filters.join(' and '), params) } };
  },

  redeliver: async (ctx) => {
    const rows = await ctx.sql.query<{ status: string; tenant_id: string }>(
      'select status, tenant_id from sandbox_deliveries where id::text = $1 for update',
      [ctx.path.deliveryId],
    );
    const row = rows[0] ?? refuse(refusals.notFound('No delivery has this ID.'));
    requireInScope(ctx.tenant, row.tenant_id, 'No delivery has this ID.');
    if (row.status === 'skipped')
      refuse(refusals.conflict('The endpoint was inactive when the event happened; nothing is sent to it.'));
    await ctx.sql.query(`update sandbox_deliveries set status = 'pending', next_attempt_at = $2 where id = $1`, [
      ctx.path.deliveryId,
      ctx.clock.now().toISOString(),
    ]);
    return { status: 202, body: (await deliveries(ctx.sql, 'd.id = $1', [ctx.path.deliveryId]))[0] };
  },

  receiveDelivery: async (ctx) => {
    if (ctx.path.answer === 'fail') refuse(refusals.receiverFailed());
    return { status: 200, body: { received: (ctx.body as { id: string }).id } };
  },

  triggerEvent: async (ctx) => {
    const { tenantId, event, subject } = ctx.body as {
      tenantId: string;
      event: string;
      subject?: Record<string, unknown>;
    };
    if (!ctx.instance.events.documented().includes(event))
      refuse(refusals.invalidRequest(400, `The v1 description lists no event ${event}.`));
    requireInScope(ctx.tenant, tenantId, 'No tenant has this client ID.');
    if (!(await ctx.sql.query('select 1 from tenants where id = $1', [tenantId])).length)
      refuse(refusals.notFound('No tenant has this client ID.'));
    const envelope = await ctx.instance.events.emit(ctx, tenantId, event, subject ?? {});
    const count = await ctx.sql.query<{ n: string }>(
      'select count(*) as n from sandbox_deliveries where event_id = $1',
      [envelope.id],
    );
    return { status: 201, body: { envelope, deliveries: Number(count[0]!.n) } };
  },
};
