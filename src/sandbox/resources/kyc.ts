// KYC links: `generateKycUrl` answers a link to the sandbox's own KYC page (/sandbox/kyc/{sessionId}), where a
// tester approves or rejects the user through getKycSession, approveKycSession and rejectKycSession. A link
// belongs to one user of one tenant, decides once, and only while the user is pending (the sandbox's choice:
// the source shows only that the call answers a `url`).
import { randomBytes } from 'node:crypto';
import { type CallContext, type Handlers, tenantOf } from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse } from '../core/refusals.js';
import { triggerIn } from '../core/triggers.js';
import { decideUser, findUser, personOf, type UserRow } from './users.js';

interface SessionRow {
  id: string;
  tenant_id: string;
  user_id: string;
  template_id: string | null;
  custom_metadata_name: string | null;
  created_at: Date | string;
  used_at: Date | string | null;
  outcome: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const NOT_FOUND = 'No KYC link has this ID.';

/** The link's session and its user (same tenant: a link never reaches another tenant's user); 404 when either is unknown. */
async function sessionAndUser(
  ctx: CallContext,
  sessionId: string,
  lock: boolean,
): Promise<{ session: SessionRow; user: UserRow }> {
  const forUpdate = lock ? ' for update' : '';
  const session =
    (await ctx.sql.query<SessionRow>(`select * from kyc_sessions where id = $1${forUpdate}`, [sessionId]))[0] ??
    refuse(refusals.notFound(NOT_FOUND));
  const user =
    (
      await ctx.sql.query<UserRow>(`select * from users where id = $1 and tenant_id = $2${forUpdate}`, [
        session.user_id,
        session.tenant_id,
      ])
    )[0] ?? refuse(refusals.notFound(NOT_FOUND));
  return { session, user };
}

async function decide(ctx: CallContext, sessionId: string, trigger: 'approveUser' | 'rejectUser') {
  const { session, user } = await sessionAndUser(ctx, sessionId, true);
  if (session.used_at !== null)
    refuse(
      refusals.conflict(
        `This link was already used: the user was ${session.outcome} through it at ${iso(session.used_at)}.`,
      ),
    );
  if (user.status !== 'pending')
    refuse(
      refusals.conflict(`The user is no longer pending (now ${user.status}): a KYC link decides a pending user only.`),
    );
  const body = await decideUser(ctx, user.id, trigger);
  await ctx.sql.query('update kyc_sessions set used_at = $2, outcome = $3 where id = $1', [
    session.id,
    ctx.clock.now().toISOString(),
    body.status,
  ]);
  return { status: 200, body };
}

/** What a trigger value of generateKycUrl does to the session it made. */
export const outcomes = { generateKycUrl: (ctx, sessionId) => decide(ctx, sessionId, 'rejectUser') } satisfies Outcomes;

export const handlers: Handlers = {
  generateKycUrl: async (ctx) => {
    const tenant = tenantOf(ctx);
    const user = await findUser(ctx.sql, tenant, ctx.path.user_id);
    if (!user || user === 'client') refuse(refusals.notFound('No user of this client has this ID.'));
    const id = `kyc_${randomBytes(24).toString('base64url')}`;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    await ctx.sql.query(
      'insert into kyc_sessions (id, tenant_id, user_id, template_id, custom_metadata_name, created_at) values ($1, $2, $3, $4, $5, $6)',
      [
        id,
        tenant.id,
        ctx.path.user_id,
        text(ctx.query.template_id),
        text(ctx.query.custom_metadata_name),
        ctx.clock.now().toISOString(),
      ],
    );
    // A trigger value (KYC_FAILED, or _LATER after its delay): the session fails, by rejectKycSession's own path.
    const trigger = triggerIn('generateKycUrl', { query: ctx.query });
    if (user.status === 'pending' && trigger?.transition === 'rejectUser')
      await runOrSchedule(ctx, tenant.id, trigger, id, outcomes.generateKycUrl);
    return { status: 200, body: { url: `${ctx.origin}/sandbox/kyc/${id}` } };
  },

  getKycSession: async (ctx) => {
    const { session, user } = await sessionAndUser(ctx, ctx.path.sessionId, false);
    return {
      status: 200,
      body: {
        sessionId: session.id,
        userId: user.id,
        clientId: session.tenant_id,
        ...personOf(user),
        templateId: session.template_id,
        customMetadataName: session.custom_metadata_name,
        userStatus: user.status,
        used: session.used_at === null ? null : { outcome: session.outcome, at: iso(session.used_at) },
        createdAt: iso(session.created_at),
      },
    };
  },

  approveKycSession: (ctx) => decide(ctx, ctx.path.sessionId, 'approveUser'),
  rejectKycSession: (ctx) => decide(ctx, ctx.path.sessionId, 'rejectUser'),
};
