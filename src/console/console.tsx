// The console of one operation: where to send it, what to send (from the description's examples, checked before
// sending), the answer as it came and as the description judges it, and the same call as TypeScript and curl.

import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { OperationEntry } from '../client/lookup/index.js';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import type { Route } from '../sandbox/contract/router.js';
import { adminTokenFor, NO_ADMIN_TOKEN } from './admin-token.js';
import { CopyBox } from './copy-box.js';
import { CredentialsOffer } from './credentials.js';
import { BodyEditor } from './editor.js';
import { type FreshField, freshenText } from './fresh.js';
import {
  buildCall,
  checkAnswer,
  documentedStatuses,
  type Inputs,
  initialInputs,
  inputKey,
  type Problem,
  parameterInputs,
  requestProblems,
  type Verdict,
} from './model.js';
import { outcomeOf } from './outcome.js';
import { type ClientInfo, curlLine, type SampleInput, typeScriptSample } from './samples.js';
import { type Auth, type Exchange, send } from './send.js';
import { makeTenant, readTenant, type Tenant } from './tenant.js';
import { ProblemList, VerdictView } from './verdict.js';

export interface Targets {
  /** The local sandbox's origin, when `npm start` runs one. */
  sandbox?: string;
  /** The Prism mock of each family, by family. */
  mocks?: Record<string, string>;
}

interface ConsoleProps {
  family: string;
  doc: OpenApiDocument;
  entry: OperationEntry;
  route: Route;
  client: ClientInfo;
  targets: Targets;
  /** The reference page's address of each control operation a refusal's next step names. */
  controlLinks?: Record<string, string>;
  /** Body fields that must be unique: fresh in the first inputs and again after each send. */
  fresh?: FreshField[];
  onClose(): void;
}

type TargetKind = 'sandbox' | 'mock' | 'other';

interface Outcome {
  exchange?: Exchange;
  verdict?: Verdict;
  message?: string;
  /** The request broke the description and was sent anyway. */
  onPurpose: boolean;
}

/** Prism checks only that a secured call carries a bearer token: any will do, and none is a secret. */
const MOCK_TOKEN = 'prism-mock-accepts-any-token';
const TARGET_KEY = 'ramp-console-target';
const EXAMPLE_BASE_URL = 'https://api.example.co';
const OTHER_KEY = 'ramp-console-other-url';

/** The operation's first inputs: the description's examples, its unique fields fresh, the tenant's values. */
function startingInputs(doc: OpenApiDocument, entry: OperationEntry, fresh: FreshField[] | undefined, tenant?: Tenant) {
  const inputs = initialInputs(doc, entry);
  return withTenant({ ...inputs, bodyText: freshenText(inputs.bodyText, fresh) }, entry, tenant);
}

/** @public The operation console, which ./panel.tsx passes on to the page that loads it with import(). */
export function Console({ family, doc, entry, route, client, targets, fresh, controlLinks, onClose }: ConsoleProps) {
  const mock = targets.mocks?.[family];
  const { kind, setKind, otherUrl, setOtherUrl, baseUrl } = useTarget(targets, mock);
  const { tenant, tenantMessage, makeTenantThen } = useTenantMaker(targets.sandbox);
  const [typedCredentials, setTypedCredentials] = useState('{}');
  // Kept with the address it was typed for: switching targets never sends it elsewhere.
  const [typedAdminToken, setTypedAdminToken] = useState(NO_ADMIN_TOKEN);
  const adminToken = adminTokenFor(typedAdminToken, baseUrl);
  const [preferCode, setPreferCode] = useState('');
  const [inputs, setInputs] = useState<Inputs>(() => startingInputs(doc, entry, fresh, tenant));

  // Another operation: its own inputs, and no answer yet.
  useEffect(() => {
    setInputs(startingInputs(doc, entry, fresh, tenant));
    setPreferCode('');
  }, [entry]);

  const secured = route.secured;
  const isTokenOperation = client.token?.operationId === entry.operationId;
  const useTenant = kind === 'sandbox' && family !== 'sandbox' && tenant !== undefined;
  const credentials = useTenant ? tenant[family === 'business' ? 'businessCredentials' : 'v1Credentials'] : undefined;
  /** The token operation itself, with credentials at hand, sends them as its body without showing them. */
  const credentialsAsBody = isTokenOperation && (useTenant || (kind === 'other' && typedCredentials.trim() !== ''));
  const auth = authOf({ client, adminToken, useTenant, credentials, kind, typedCredentials });

  const call = useMemo(() => {
    const built = buildCall(entry, inputs);
    if (credentialsAsBody) {
      built.body = useTenant ? credentials : parseOr(typedCredentials, {});
      delete built.bodyError;
    }
    return built;
  }, [entry, inputs, credentialsAsBody, credentials, typedCredentials]);
  const problems = useMemo(() => requestProblems(route, entry, call), [route, entry, call]);
  const extraHeaders: Record<string, string> = kind === 'mock' && preferCode ? { Prefer: `code=${preferCode}` } : {};
  const needsTenant = kind === 'sandbox' && family !== 'sandbox' && secured && !tenant;

  const afterSent = () => {
    // The next send gets new unique values, so sending again is not refused as a duplicate.
    if (!credentialsAsBody) setInputs((now) => ({ ...now, bodyText: freshenText(now.bodyText, fresh) }));
  };
  const sender = useSend({ family, baseUrl, auth, entry, route, client, call, extraHeaders, problems, afterSent });
  const makeOne = () => makeTenantThen((made) => setInputs((now) => withTenant(now, entry, made)));

  return (
    <aside class="rc-console" aria-label={`Console: ${entry.operationId}`}>
      <ConsoleHead entry={entry} onClose={onClose} />

      <TargetChooser
        sandbox={targets.sandbox}
        mock={mock}
        kind={kind}
        onKind={setKind}
        otherUrl={otherUrl}
        onOtherUrl={setOtherUrl}
      />

      <SigningIn
        kind={kind}
        family={family}
        entry={entry}
        client={client}
        secured={secured}
        isTokenOperation={isTokenOperation}
        tenant={tenant}
        tenantMessage={tenantMessage}
        onMakeTenant={makeOne}
        typedCredentials={typedCredentials}
        onCredentials={setTypedCredentials}
        adminToken={adminToken}
        onAdminToken={(token) => setTypedAdminToken({ baseUrl, token })}
        preferCode={preferCode}
        onPreferCode={setPreferCode}
      />

      <Parameters entry={entry} inputs={inputs} setInputs={setInputs} problems={problems} />

      {entry.operation.requestBody && (
        <RequestBody
          credentialsAsBody={credentialsAsBody}
          credentialsOf={useTenant ? `of tenant ${tenant?.name}` : 'typed above'}
          secretEnv={client.env.secret}
          bodyText={inputs.bodyText}
          onBodyText={(bodyText) => setInputs((now) => ({ ...now, bodyText }))}
          problems={problems}
        />
      )}

      <RequestCheck problems={problems} />
      {needsTenant && <p class="rc-note">Make a tenant first: this operation needs its token.</p>}
      <SendButton
        sending={sender.sending}
        disabled={sender.sending || !baseUrl}
        breaks={problems.length > 0}
        onSend={sender.sendNow}
      />

      {sender.outcome && <Answer outcome={sender.outcome} {...(controlLinks ? { controlLinks } : {})} />}

      {useTenant && client.auth === 'credentials' && (
        <CredentialsOffer client={client} baseUrl={baseUrl} credentials={credentials} />
      )}
      <Samples
        sample={sampleOf({ client, baseUrl, entry, secured, adminToken, kind, call, extraHeaders, credentialsAsBody })}
      />
    </aside>
  );
}

/** The tenant the sandbox made for this tab, and the making of a new one. */
function useTenantMaker(sandbox: string | undefined) {
  const [tenant, setTenant] = useState<Tenant | undefined>(() => readTenant(sandbox));
  const [tenantMessage, setTenantMessage] = useState('');
  /** Makes a tenant on the sandbox; `onMade` puts its values where they belong. */
  const makeTenantThen = async (onMade: (made: Tenant) => void) => {
    if (!sandbox) return;
    setTenantMessage('Making a tenant...');
    try {
      const made = await makeTenant(sandbox);
      setTenant(made);
      onMade(made);
      setTenantMessage('');
    } catch (error) {
      setTenantMessage((error as Error).message);
    }
  };
  return { tenant, tenantMessage, makeTenantThen };
}

/** Sending the call, and its outcome (the answer and the description's verdict on it), cleared for another operation. */
function useSend(options: {
  family: string;
  baseUrl: string;
  auth: Auth;
  entry: OperationEntry;
  route: Route;
  client: ClientInfo;
  call: ReturnType<typeof buildCall>;
  extraHeaders: Record<string, string>;
  problems: Problem[];
  /** Called when an answer came. */
  afterSent(): void;
}) {
  const { entry, route, client } = options;
  const [outcome, setOutcome] = useState<Outcome>();
  const [sending, setSending] = useState(false);
  useEffect(() => setOutcome(undefined), [entry]);
  const sendNow = async () => {
    setSending(true);
    const onPurpose = options.problems.length > 0;
    const result = await send({
      family: options.family,
      baseUrl: options.baseUrl,
      auth: options.auth,
      operationId: entry.operationId,
      ...(client.token ? { token: client.token } : {}),
      call: options.call,
      takesBody: entry.operation.requestBody !== undefined,
      extraHeaders: options.extraHeaders,
    });
    setSending(false);
    if (result.ok) options.afterSent();
    if (!result.ok) return setOutcome({ message: result.message, onPurpose });
    const verdict = checkAnswer(route, entry, result.exchange.status, result.exchange.bodyText);
    setOutcome({ exchange: result.exchange, verdict, onPurpose });
  };
  return { outcome, sending, sendNow };
}

function SendButton(props: { sending: boolean; disabled: boolean; breaks: boolean; onSend(): void }) {
  return (
    <button type="button" class="rc-send" disabled={props.disabled} onClick={props.onSend}>
      {props.sending ? 'Sending...' : props.breaks ? 'Send anyway (breaks the description)' : 'Send'}
    </button>
  );
}

/** The call as the samples show it. */
function sampleOf(options: {
  client: ClientInfo;
  baseUrl: string;
  entry: OperationEntry;
  secured: boolean;
  adminToken: string;
  kind: TargetKind;
  call: SampleInput['call'];
  extraHeaders: Record<string, string>;
  credentialsAsBody: boolean;
}): SampleInput {
  const { client, baseUrl, entry, secured, adminToken, kind } = options;
  return {
    client,
    // No address chosen yet: the placeholder the address field shows, never a port that may be another's.
    baseUrl: baseUrl || EXAMPLE_BASE_URL,
    operationId: entry.operationId,
    method: entry.method,
    path: entry.path,
    secured,
    signed: client.auth === 'adminToken' && adminToken !== '',
    ...(kind === 'mock' && client.auth === 'credentials' && secured ? { fixedToken: MOCK_TOKEN } : {}),
    takesBody: entry.operation.requestBody !== undefined,
    call: options.call,
    extraHeaders: options.extraHeaders,
    credentialsBody: options.credentialsAsBody,
  };
}

/** The same call as TypeScript and as curl. */
function Samples({ sample }: { sample: SampleInput }) {
  return (
    <>
      <CopyBox title="TypeScript sample" text={typeScriptSample(sample)} />
      <CopyBox title="curl" text={curlLine(sample)} />
    </>
  );
}

/** Where the console sends: the reader's choice and the other address typed, both kept in this tab. */
function useTarget(targets: Targets, mock: string | undefined) {
  const [kind, setKind] = useState<TargetKind>(
    () =>
      (sessionStorage.getItem(TARGET_KEY) as TargetKind | null) ??
      (targets.sandbox ? 'sandbox' : mock ? 'mock' : 'other'),
  );
  const [otherUrl, setOtherUrl] = useState(() => sessionStorage.getItem(OTHER_KEY) ?? '');
  useEffect(() => sessionStorage.setItem(TARGET_KEY, kind), [kind]);
  useEffect(() => sessionStorage.setItem(OTHER_KEY, otherUrl), [otherUrl]);
  const baseUrl = kind === 'sandbox' ? (targets.sandbox ?? '') : kind === 'mock' ? (mock ?? '') : otherUrl.trim();
  return { kind, setKind, otherUrl, setOtherUrl, baseUrl };
}

/** How a call signs in: the admin token, the tenant's credentials, the mock's token, or the typed credentials. */
function authOf(options: {
  client: ClientInfo;
  adminToken: string;
  useTenant: boolean;
  credentials: unknown;
  kind: TargetKind;
  typedCredentials: string;
}): Auth {
  const { client, adminToken, useTenant, credentials, kind, typedCredentials } = options;
  return client.auth === 'adminToken'
    ? adminToken
      ? { adminToken }
      : undefined
    : useTenant
      ? { credentials }
      : kind === 'mock'
        ? { token: MOCK_TOKEN }
        : kind === 'other'
          ? { credentials: parseOr(typedCredentials, {}) }
          : undefined;
}

function ConsoleHead({ entry, onClose }: { entry: OperationEntry; onClose(): void }) {
  const heading = `${entry.method.toUpperCase()} ${entry.path}`;
  return (
    <>
      <header class="rc-head">
        <h2>
          Try <code>{entry.operationId}</code>
        </h2>
        <button type="button" class="rc-close" onClick={onClose}>
          Close the console
        </button>
      </header>
      <p class="rc-op">
        <code>{heading}</code>
      </p>
    </>
  );
}

function TargetChooser({
  sandbox,
  mock,
  kind,
  onKind,
  otherUrl,
  onOtherUrl,
}: {
  sandbox: string | undefined;
  mock: string | undefined;
  kind: TargetKind;
  onKind(kind: TargetKind): void;
  otherUrl: string;
  onOtherUrl(url: string): void;
}) {
  return (
    <fieldset class="rc-targets">
      <legend>Send to</legend>
      {sandbox && (
        <label>
          <input type="radio" name="rc-target" checked={kind === 'sandbox'} onChange={() => onKind('sandbox')} />
          The local sandbox <code>{sandbox}</code>
        </label>
      )}
      {mock && (
        <label>
          <input type="radio" name="rc-target" checked={kind === 'mock'} onChange={() => onKind('mock')} />
          The Prism mock <code>{mock}</code>
        </label>
      )}
      <label>
        <input type="radio" name="rc-target" checked={kind === 'other'} onChange={() => onKind('other')} />
        Another address
      </label>
      {kind === 'other' && (
        <label class="rc-field">
          Base URL
          <input
            type="url"
            value={otherUrl}
            placeholder={EXAMPLE_BASE_URL}
            onInput={(e) => onOtherUrl(e.currentTarget.value)}
          />
        </label>
      )}
    </fieldset>
  );
}

/** What the call signs in with, by target: the sandbox's tenant, the mock's token, typed credentials or token. */
function SigningIn(props: {
  kind: TargetKind;
  family: string;
  entry: OperationEntry;
  client: ClientInfo;
  secured: boolean;
  isTokenOperation: boolean;
  tenant: Tenant | undefined;
  tenantMessage: string;
  onMakeTenant(): void;
  typedCredentials: string;
  onCredentials(text: string): void;
  adminToken: string;
  onAdminToken(token: string): void;
  preferCode: string;
  onPreferCode(code: string): void;
}) {
  const { kind, client, secured } = props;
  return (
    <section class="rc-auth" aria-label="Signing in">
      {kind === 'sandbox' && props.family !== 'sandbox' && (
        <TenantStatus
          tenant={props.tenant}
          message={props.tenantMessage}
          tokenOperation={client.token?.operationId}
          onMake={props.onMakeTenant}
        />
      )}
      {kind === 'mock' && client.auth === 'credentials' && secured && (
        <p>
          The mock checks only that a token is sent: the console sends <code>{MOCK_TOKEN}</code>.
        </p>
      )}
      {kind === 'other' && client.auth === 'credentials' && (secured || props.isTokenOperation) && (
        <SecretField value={props.typedCredentials} onInput={props.onCredentials}>
          Credentials (the body of {client.token?.operationId}, JSON)
        </SecretField>
      )}
      {client.auth === 'adminToken' && (
        <SecretField value={props.adminToken} onInput={props.onAdminToken}>
          Admin token (only for a sandbox started with one)
        </SecretField>
      )}
      {kind === 'mock' && (
        <label class="rc-field">
          Ask the mock for status
          <select value={props.preferCode} onChange={(e) => props.onPreferCode(e.currentTarget.value)}>
            <option value="">the mock's choice</option>
            {documentedStatuses(props.entry)
              .filter((s) => /^\d{3}$/.test(s))
              .map((s) => (
                <option value={s}>{s}</option>
              ))}
          </select>
        </label>
      )}
    </section>
  );
}

/** A field for a secret (credentials, a token): its label, and what is typed, never shown. */
function SecretField(props: { value: string; onInput(text: string): void; children: ComponentChildren }) {
  return (
    <label class="rc-field">
      {props.children}
      <input
        type="password"
        autocomplete="off"
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </label>
  );
}

function TenantStatus(props: {
  tenant: Tenant | undefined;
  message: string;
  tokenOperation: string | undefined;
  onMake(): void;
}) {
  const { tenant } = props;
  return (
    <>
      <button type="button" onClick={props.onMake}>
        Make a tenant
      </button>{' '}
      <span role="status" aria-label="Tenant">
        {tenant ? (
          <>
            Tenant <strong>{tenant.name}</strong>, clientId <code>{tenant.clientId}</code>: the console signs in with
            its credentials through <code>{props.tokenOperation}</code>; they stay in this tab.
          </>
        ) : (
          <>
            No tenant yet: <code>createTenant</code> makes one and the console keeps its credentials in this tab.
          </>
        )}
      </span>
      {props.message && <p role="alert">{props.message}</p>}
    </>
  );
}

/** The request's body: an editor, or a note when the body is the credentials, which are never shown. */
function RequestBody(props: {
  credentialsAsBody: boolean;
  /** Whose credentials the body is, in words. */
  credentialsOf: string;
  secretEnv: string;
  bodyText: string;
  onBodyText(text: string): void;
  problems: Problem[];
}) {
  if (props.credentialsAsBody)
    return (
      <p class="rc-note">
        Body: the credentials {props.credentialsOf}, kept in this tab (the samples read <code>{props.secretEnv}</code>
        ).
      </p>
    );
  return (
    <div class="rc-body">
      <span class="rc-label" id="rc-body-label">
        Request body (JSON)
      </span>
      <BodyEditor
        label="Request body (JSON)"
        value={props.bodyText}
        onChange={props.onBodyText}
        problems={props.problems}
      />
    </div>
  );
}

function RequestCheck({ problems }: { problems: Problem[] }) {
  return (
    <section class="rc-check" aria-label="Request check">
      {problems.length === 0 ? (
        <p>The request follows the description.</p>
      ) : (
        <>
          <p>The request breaks the description; it can still be sent, to try a refusal:</p>
          <ProblemList problems={problems} />
        </>
      )}
    </section>
  );
}

function Parameters({
  entry,
  inputs,
  setInputs,
  problems,
}: {
  entry: OperationEntry;
  inputs: Inputs;
  setInputs: (update: (now: Inputs) => Inputs) => void;
  problems: Problem[];
}) {
  const list = parameterInputs(entry);
  if (list.length === 0) return null;
  return (
    <fieldset class="rc-params">
      <legend>Parameters</legend>
      {list.map((p) => {
        const id = `rc-${p.in}-${p.name}`;
        const own = problems.filter((problem) => problem.where === `${p.in} ${p.name}`);
        return (
          <div class="rc-param">
            <label for={id}>
              {p.name} ({p.in}
              {p.required ? ', required' : ''})
            </label>
            <input
              id={id}
              value={inputs.values[inputKey(p)] ?? ''}
              aria-describedby={`${id}-rules`}
              aria-invalid={own.length > 0}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setInputs((now) => ({ ...now, values: { ...now.values, [inputKey(p)]: value } }));
              }}
            />
            <small id={`${id}-rules`}>
              {p.constraints || 'any value'}
              {own.map((problem) => ` (${problem.message})`).join('')}
            </small>
          </div>
        );
      })}
    </fieldset>
  );
}

function Answer({ outcome, controlLinks }: { outcome: Outcome; controlLinks?: Record<string, string> }) {
  const { exchange, verdict, message, onPurpose } = outcome;
  return (
    <section class="rc-answer" aria-label="Answer">
      <h3>Answer</h3>
      {onPurpose && <p class="rc-note">Sent on purpose against the description.</p>}
      {message && <p role="alert">{message}</p>}
      {exchange && verdict && (
        <>
          <p class="rc-status">
            <strong>HTTP {exchange.status}</strong> {exchange.statusText} in {Math.round(exchange.ms)} ms
          </p>
          <VerdictView
            verdict={verdict}
            outcome={outcomeOf(exchange.status, exchange.bodyText)}
            {...(controlLinks ? { controlLinks } : {})}
          />
          <details>
            <summary>Response headers ({exchange.responseHeaders.length})</summary>
            <pre>{exchange.responseHeaders.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
          </details>
          <details>
            <summary>Request as sent</summary>
            <pre>
              {`${exchange.method} ${exchange.url}\n${exchange.requestHeaders.map(([k, v]) => `${k}: ${v}`).join('\n')}${exchange.requestBody ? `\n\n${exchange.requestBody}` : ''}`}
            </pre>
          </details>
          <section aria-label="Response body">
            <pre class="rc-response">{pretty(exchange.bodyText)}</pre>
          </section>
        </>
      )}
    </section>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** The tenant's values in the parameters that carry them: `clientId` and the registration header. */
function withTenant(inputs: Inputs, entry: OperationEntry, tenant: Tenant | undefined): Inputs {
  if (!tenant) return inputs;
  const values = { ...inputs.values };
  for (const p of entry.parameters) {
    if (p.name === 'clientId') values[inputKey(p as { in: string; name: string })] = tenant.clientId;
    if (String(p.name).toLowerCase() === 'x-integration-register')
      values[inputKey(p as { in: string; name: string })] = tenant.integrationRegister;
  }
  return { ...inputs, values };
}
