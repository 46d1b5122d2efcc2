// Events and their deliveries, in the sandbox's database. `emit` runs inside the transaction of the state
// change, so an event exists exactly when the change was committed.
import { randomUUID } from 'node:crypto';
import { deliverySchedule } from 'ramp-api/webhooks';
import { type OpenApiDocument, readBundleFile } from '../contract/document.js';
import { precompiledValidators, validatorId } from '../contract/reference.js';
import { createSchemaValidator, type SchemaValidator } from '../contract/schema-validator.js';
import type { Clock } from '../core/clock.js';
import type { EventCatalog } from '../core/instance.js';
import { refusals, refuse } from '../core/refusals.js';
import type { Sql } from '../store/db.js';
import { processOf } from './table.js';

/**
 * The most the sandbox delivers in one call, an event's envelope as JSON: what a request body may hold (1 MiB,
 * pipeline/request-body.ts's MAX_BODY_BYTES) and room for the envelope's own fields. A larger event is refused
 * when it is made (`emit`), and the sandbox's own receiver reads up to this: it takes every delivery it makes.
 */
export const MAX_DELIVERY_BYTES = 1024 * 1024 + 16 * 1024;

/** The one envelope every event has (the source shows no payload: the sandbox's choice). */
interface EventEnvelope {
  event: string;
  id: string;
  /** Sandbox time, ISO 8601. */
  createdAt: string;
  tenantId: string;
  /** The resource as the API returns it. */
  data: Record<string, unknown>;
}

/** The name of the events' validators, which the build compiles ahead (scripts/build/build-validators.ts). */
export const EVENTS_VALIDATORS = 'v1-events';

/** The payload schema of each event the v1 description's `webhooks:` lists. */
export function webhookSchemas(doc: OpenApiDocument): Map<string, unknown> {
  const webhooks =
    (
      doc as {
        webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }>;
      }
    ).webhooks ?? {};
  return new Map(
    Object.entries(webhooks).flatMap(([event, item]) => {
      const schema: unknown = item?.post?.requestBody?.content?.['application/json']?.schema;
      return schema ? [[event, schema] as const] : [];
    }),
  );
}

/** The events of the v1 description `doc` (default: the package's bundle), for one sandbox. */
export function createEventCatalog(doc?: OpenApiDocument): EventCatalog {
  // Read when first needed (the first event, or a list of them): nothing of it is needed to start.
  let loaded: { doc: OpenApiDocument; schemas: Map<string, unknown>; validator?: SchemaValidator } | undefined;
  const events = () => {
    if (!loaded) {
      const v1 = doc ?? readBundleFile('v1');
      loaded = { doc: v1, schemas: webhookSchemas(v1) };
    }
    return loaded;
  };
  const check = (event: string, payload: unknown): string[] => {
    const known = events();
    const schema = known.schemas.get(event);
    if (!schema) throw new Error(`The v1 description lists no event ${event}.`);
    known.validator ??= createSchemaValidator(known.doc, validatorId(EVENTS_VALIDATORS), {
      precompiled: precompiledValidators(EVENTS_VALIDATORS),
    });
    return known.validator.validate(schema, payload);
  };
  return {
    documented: () => [...events().schemas.keys()],
    check,
    emit: (ctx, tenantId, event, data) => emitEvent(ctx, check, tenantId, event, data),
  };
}

interface EmitContext {
  sql: Sql;
  clock: Pick<Clock, 'now'>;
}

/** Records `event` for `tenantId` and one delivery per endpoint that receives it. Returns the envelope. */
async function emitEvent(
  ctx: EmitContext,
  check: EventCatalog['check'],
  tenantId: string,
  event: string,
  data: Record<string, unknown>,
): Promise<EventEnvelope> {
  const now = ctx.clock.now();
  const envelope: EventEnvelope = { event, id: randomUUID(), createdAt: now.toISOString(), tenantId, data };
  const problems = check(event, envelope);
  if (problems.length) throw new Error(`The ${event} payload breaks the v1 description: ${problems.join('; ')}`);
  const payload = JSON.stringify(envelope);
  // Its receivers, the sandbox's own among them, must be able to take it whole (numbers such as 1e20 grow as JSON).
  if (Buffer.byteLength(payload) > MAX_DELIVERY_BYTES)
    refuse(
      refusals.invalidRequest(
        400,
        `The ${event} event would be ${Buffer.byteLength(payload)} bytes as JSON; the sandbox delivers at most ${MAX_DELIVERY_BYTES}. Send a smaller subject.`,
      ),
    );
  await ctx.sql.query(
    'insert into sandbox_events (id, tenant_id, event, payload, created_at) values ($1, $2, $3, $4, $5)',
    [envelope.id, tenantId, event, payload, envelope.createdAt],
  );
  const endpoints = await ctx.sql.query<{
    id: string;
    config: {
      url: string;
      timeoutMs?: number;
      retryConfig?: NonNullable<Parameters<typeof deliverySchedule>[0]>['retryConfig'];
    };
    is_active: boolean;
  }>('select id, config, is_active from integration_endpoints where tenant_id = $1 and trigger_event = $2', [
    tenantId,
    event,
  ]);
  const rows: { kind: string; id: string; url: string; timeoutMs: number; delays: number[]; active: boolean }[] =
    endpoints.map((e) => {
      const schedule = deliverySchedule({ timeoutMs: e.config.timeoutMs, retryConfig: e.config.retryConfig });
      return {
        kind: 'integration',
        id: e.id,
        url: String(e.config.url),
        timeoutMs: schedule.timeoutMs,
        delays: schedule.retryDelaysMs,
        active: e.is_active,
      };
    });
  const process = processOf(event);
  if (process) {
    const hooks = await ctx.sql.query<{ id: string; url: string; status: boolean }>(
      'select id, url, status from business_webhooks where tenant_id = $1 and process = $2',
      [tenantId, process],
    );
    const schedule = deliverySchedule();
    for (const h of hooks)
      rows.push({
        kind: 'business',
        id: h.id,
        url: h.url,
        timeoutMs: schedule.timeoutMs,
        delays: schedule.retryDelaysMs,
        active: h.status,
      });
  }
  for (const r of rows) {
    await ctx.sql.query(
      `insert into sandbox_deliveries (id, event_id, tenant_id, endpoint_kind, endpoint_id, url, timeout_ms, retry_delays_ms, status, next_attempt_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        randomUUID(),
        envelope.id,
        tenantId,
        r.kind,
        r.id,
        r.url,
        r.timeoutMs,
        JSON.stringify(r.delays),
        r.active ? 'pending' : 'skipped',
        r.active ? envelope.createdAt : null,
        envelope.createdAt,
      ],
    );
  }
  return envelope;
}
