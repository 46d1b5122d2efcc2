// The KYC page behind generateKycUrl's link (/sandbox/kyc/{sessionId}): who is being verified, and the
// tester's verdict, through getKycSession, approveKycSession and rejectKycSession.
import { useEffect, useState } from 'preact/hooks';
import { ControlError, call, linkId, mount, type Schemas, time } from './api.js';

type Session = Schemas['KycSession'];

function Kyc() {
  const sessionId = linkId();
  const [session, setSession] = useState<Session | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    call<Session>('getKycSession', { path: { sessionId } }).then(setSession, (e: unknown) =>
      setProblem(
        e instanceof ControlError && e.status === 404
          ? 'This KYC link is unknown: it was never issued, or the sandbox was reset.'
          : String((e as Error).message),
      ),
    );
  useEffect(() => void load(), []);

  async function decide(operationId: 'approveKycSession' | 'rejectKycSession') {
    setBusy(true);
    setProblem(null);
    try {
      const user = await call<Schemas['SandboxUser']>(operationId, { path: { sessionId } });
      setDone(`Verification ${user.status}. The user is now ${user.status}; you can close this page.`);
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(false);
      await load();
    }
  }

  const closed = session?.used
    ? `This link was already used: the user was ${session.used.outcome} through it at ${time(session.used.at)}.`
    : session && session.userStatus !== 'pending'
      ? `The user is no longer pending (now ${session.userStatus}): this link decides a pending user only.`
      : null;
  return (
    <main class="narrow">
      <p class="sandbox-note">
        Sandbox page: it stands in for the identity-verification provider. Nothing here is the real service.
      </p>
      <h1>Identity verification</h1>
      {!session && !problem && <p>Loading the verification…</p>}
      {session && (
        <dl class="facts">
          <dt>Name</dt>
          <dd data-testid="kyc-name">{session.name}</dd>
          <dt>Document</dt>
          <dd>
            {session.documentType} {session.documentNumber}
          </dd>
          <dt>Template (template_id)</dt>
          <dd>{session.templateId ?? 'none given'}</dd>
          <dt>Metadata name (custom_metadata_name)</dt>
          <dd>{session.customMetadataName ?? 'none given'}</dd>
          <dt>User status</dt>
          <dd data-testid="kyc-status">{session.userStatus}</dd>
          <dt>User ID</dt>
          <dd>
            <code>{session.userId}</code>
          </dd>
        </dl>
      )}
      <div role="status" aria-live="polite">
        {done && <p class="ok">{done}</p>}
        {!done && closed && <p class="notice">{closed}</p>}
      </div>
      <div role="alert">{problem && <p class="error">{problem}</p>}</div>
      {session && !closed && !done && (
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => decide('approveKycSession')}>
            Approve identity
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => decide('rejectKycSession')}>
            Reject identity
          </button>
        </div>
      )}
    </main>
  );
}

mount(<Kyc />);
