// Business-API webhooks and v1 integration endpoints, and their delivery (../events/).
import { randomUUID } from 'node:crypto';
import { type Handlers, tenantOf } from '../core/handler.js';
import { refusals, refuse, requireInScope } from '../core/refusals.js';
import { businessWebhookStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { requireOwnClient } from './users.js';

export interface WebhookRow {
  id: string;
  tenant_id: string;
  url: string;
  process: string;
  status: boolean;
}

export const webhookView = (w: WebhookRow) => ({
  id: w.id,
  method: 'POST',
  process: w.process,
  status: w.status,
  url: w.url,
  userId: w.tenant_id,
});

/** A business webhook's state is its `status`: true while active, false once deleted (the source). */
const businessWebhooks: Stateful<WebhookRow> = {
  name: 'webhook',
  machine: businessWebhookStates,
  unknown: 'This client has no webhook with this ID.',
  lock: async (sql, id) =>
    (await sql.query<WebhookRow>('select * from business_webhooks where id = $1 for update', [id]))[0],
  tenantOf: (w) => w.tenant_id,
  stateOf: (w) => String(w.status),
  save: async (sql, w, to) =>
    void (await sql.query('update business_webhooks set status = $2 where id = $1', [w.id, to === 'true'])),
  view: (w, to) => webhookView({ ...w, status: to === 'true' }),
};

export const handlers: Handlers = {
  listWebhooks: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    const rows = await ctx.sql.query<WebhookRow>(
      'select * from business_webhooks where tenant_id = $1 order by created_at',
      [tenant.id],
    );
    return { status: 200, body: { webhooks: rows.map(webhookView) } };
  },

  deleteWebhook: async (ctx) => {
    const tenant = tenantOf(ctx);
    const rows =
      ctx.path.clientId === tenant.id
        ? await ctx.sql.query<WebhookRow>(
            'select * from business_webhooks where id::text = $1 and tenant_id = $2 for update',
            [ctx.path.webhook_id, tenant.id],
          )
        : [];
    const hook = rows[0] ?? refuse(refusals.notFound(businessWebhooks.unknown));
    const { row, transition } = await moveRecord(ctx, businessWebhooks, hook.id, ctx.operationId);
    return { status: 200, body: webhookView({ ...row, status: transition.to === 'true' }) };
  },

  createBusinessWebhook: async (ctx) => {
    requireInScope(ctx.tenant, ctx.body.clientId, 'No tenant has this client ID.');
    const refused = ctx.endpoints.refuseUrl(String(ctx.body.url));
    if (refused) refuse(refusals.endpointNotAllowed(400, `The sandbox does not deliver there: ${refused}.`));
    if (!(await ctx.sql.query('select 1 from tenants where id = $1', [ctx.body.clientId])).length)
      refuse(refusals.notFound('No tenant has this client ID.'));
    const { row } = await createRecord(ctx, businessWebhooks, ctx.operationId, async (to) => {
      const rows = await ctx.sql.query<WebhookRow>(
        'insert into business_webhooks (id, tenant_id, url, process, status, created_at) values ($1, $2, $3, $4, $5, $6) returning *',
        [randomUUID(), ctx.body.clientId, ctx.body.url, ctx.body.process, to === 'true', ctx.clock.now().toISOString()],
      );
      return rows[0]!;
    });
    return { status: 201, body: webhookView(row) };
  },

  createIntegrationEndpoint: async (ctx) => {
    const tenant = tenantOf(ctx);
    const b = ctx.body;
    const refused = ctx.endpoints.refuseUrl(String(b.url));
    if (refused) refuse(refusals.endpointNotAllowed(422, `The sandbox does not deliver there: ${refused}.`));
    const now = ctx.clock.now();
    const row = { id: randomUUID(), isActive: b.isActive ?? true };
    // The unique (tenant_id, name) decides, so two creations of one name at once get one 201 and one 409.
    const inserted = await ctx.sql.query(
      `insert into integration_endpoints (id, tenant_id, name, trigger_event, is_active, config, created_at) values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (tenant_id, name) do nothing returning id`,
      [row.id, tenant.id, b.name, b.triggerEvent ?? null, row.isActive, JSON.stringify(b), now.toISOString()],
    );
    if (!inserted.length) refuse(refusals.nameTaken('An integration endpoint of this client already has this name.'));
    return { status: 201, body: { id: row.id, isActive: row.isActive, registerDate: now.toISOString() } };
  },
};
