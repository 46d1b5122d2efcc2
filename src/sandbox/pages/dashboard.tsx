// The sandbox's dashboard at `/`: the tenants; for one tenant its records, each with the control actions its
// state allows (taken from the state tables in ../core/states.ts, whose triggers are the control API's
// operationIds); the sandbox time and a way to advance it; and each event with its deliveries drawn as a
// timeline. A client of the control API only (./api.ts); polled every second, so it follows what happens.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { sandboxOperations } from 'ramp-api/sandbox';
import {
  bankAccountStates,
  type Machine,
  onRampStates,
  payoutStates,
  userStates,
  walletTransferStates,
} from '../core/states.js';
import {
  adminToken,
  amount,
  ControlError,
  call,
  clockTime,
  mount,
  type OperationId,
  type Schemas,
  time,
} from './api.js';

type TenantState = Schemas['TenantState'];
type Envelope = Schemas['EventEnvelope'];
type Delivery = Schemas['Delivery'];

const POLL_MS = 1000;
const MAX_EVENTS = 40;

/** The control operations a record in `state` can go through: the state table's triggers that the control API has. */
function actionsFor(machine: Machine, state: string): OperationId[] {
  return machine.filter((t) => t.from === state && t.trigger in sandboxOperations).map((t) => t.trigger as OperationId);
}
const verb = (operationId: string) =>
  operationId.charAt(0).toUpperCase() + operationId.slice(1).replace(/[A-Z].*$/, '');
/** The operation's one path parameter (`/sandbox/users/{userId}/approve`: userId). */
const pathParam = (operationId: OperationId) => /\{([^}]+)\}/.exec(sandboxOperations[operationId].path)?.[1] ?? 'id';

const SrOnly = ({ children }: { children: ComponentChildren }) => <span class="sr-only">{children}</span>;

type Act = (operationId: OperationId, init: Parameters<typeof call>[1], what: string) => Promise<boolean>;

function Actions({
  machine,
  state,
  id,
  what,
  act,
}: {
  machine: Machine;
  state: string;
  id: string;
  what: string;
  act: Act;
}) {
  const operations = actionsFor(machine, state);
  if (!operations.length) return <span class="muted">none</span>;
  return (
    <span class="row-actions">
      {operations.map((operationId) => (
        <button
          type="button"
          key={operationId}
          class={/^(reject|cancel)/.test(operationId) ? 'danger' : 'primary'}
          onClick={() => act(operationId, { path: { [pathParam(operationId)]: id } }, what)}
        >
          {verb(operationId)}
          <SrOnly> {what}</SrOnly>
        </button>
      ))}
    </span>
  );
}

function Section({
  id,
  title,
  count,
  wide,
  children,
}: {
  id: string;
  title: string;
  count: number;
  wide?: boolean;
  children: ComponentChildren;
}) {
  return (
    <section class={wide ? 'card wide' : 'card'} aria-labelledby={`${id}-title`} data-testid={id}>
      <h3 id={`${id}-title`}>
        {title} <span class="count">({count})</span>
      </h3>
      {count === 0 ? <p class="muted">None yet.</p> : children}
    </section>
  );
}

/** A table in a box that scrolls sideways on a narrow window, reachable by keyboard to scroll it. */
function Table({ label, head, children }: { label: string; head: string[]; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must take focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable).
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would add a form group's border and legend semantics to a table's scroll box; role=group only names it.
    <div class="table-wrap" tabIndex={0} role="group" aria-label={label}>
      <table>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const short = (id: string) => id.slice(0, 8);
const Id = ({ id }: { id: string }) => (
  <code title={id} class="id">
    {short(id)}
  </code>
);
const Status = ({ value }: { value: string | boolean }) => (
  <span class={`badge s-${String(value).toLowerCase()}`}>{String(value)}</span>
);

function AmountForm({
  label,
  submit,
  id,
  currency,
}: {
  label: string;
  submit: (value: number, currency: string) => Promise<boolean>;
  id: string;
  currency?: boolean;
}) {
  const [value, setValue] = useState('');
  const [unit, setUnit] = useState('COP');
  return (
    <form
      class="inline"
      onSubmit={async (e) => {
        e.preventDefault();
        const n = Number(value);
        if (!(n > 0)) return;
        if (await submit(n, unit)) setValue('');
      }}
    >
      <label for={`${id}-amount`} class="sr-only">
        {label}
      </label>
      <input
        id={`${id}-amount`}
        type="number"
        min="0"
        step="any"
        required
        value={value}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        placeholder="amount"
      />
      {currency && (
        <>
          <label for={`${id}-currency`} class="sr-only">
            Currency
          </label>
          <input
            id={`${id}-currency`}
            class="currency"
            required
            value={unit}
            maxLength={3}
            onInput={(e) => setUnit((e.target as HTMLInputElement).value.toUpperCase())}
          />
        </>
      )}
      <button type="submit">
        Fund<SrOnly> {label.replace(/^Amount (in \w+ )?to fund /, '')}</SrOnly>
      </button>
    </form>
  );
}

/** What each section of a tenant's view is given: the tenant's records, an owner's name by id, and `act`. */
interface SectionProps {
  state: TenantState;
  owner: (id: string) => string;
  act: Act;
}

function UsersSection({ state, act }: SectionProps) {
  return (
    <Section id="users" title="Users" count={state.users.length} wide>
      <Table label="Users" head={['Name', 'Document', 'E-mail', 'Status', 'Actions']}>
        {state.users.map((u) => {
          const name = [u.firstName, u.middleName, u.firstSurname, u.lastName].filter(Boolean).join(' ');
          return (
            <tr key={u.userId} data-id={u.userId}>
              <td>{name}</td>
              <td>
                {u.documentType} {u.documentNumber}
              </td>
              <td>{u.email}</td>
              <td>
                <Status value={u.status} />
              </td>
              <td>
                <Actions machine={userStates} state={u.status} id={u.userId} what={`user ${name}`} act={act} />
              </td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}

function BalancesSection({ state, owner, act }: SectionProps) {
  const clientId = state.tenant.clientId;
  const [fundOwner, setFundOwner] = useState(clientId);
  const fundFor = state.users.some((u) => u.userId === fundOwner) ? fundOwner : clientId;
  return (
    <section class="card" aria-labelledby="balances-title" data-testid="balances">
      <h3 id="balances-title">
        Balances <span class="count">({state.balances.length})</span>
      </h3>
      {state.balances.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <Table label="Balances" head={['Owner', 'Balance']}>
          {state.balances.map((b) => (
            <tr key={`${b.userId} ${b.currency}`}>
              <td>{owner(b.userId)}</td>
              <td class="num">{amount(b.balance, b.currency)}</td>
            </tr>
          ))}
        </Table>
      )}
      <div class="fund-balance">
        <label for="fund-owner">Fund the balance of</label>
        <select id="fund-owner" value={fundFor} onChange={(e) => setFundOwner((e.target as HTMLSelectElement).value)}>
          <option value={clientId}>{owner(clientId)}</option>
          {state.users.map((u) => (
            <option value={u.userId} key={u.userId}>
              {owner(u.userId)}
            </option>
          ))}
        </select>
        <AmountForm
          id="fund-balance"
          label={`Amount to fund ${owner(fundFor)}`}
          currency
          submit={(value, currency) =>
            act(
              'fundUser',
              { path: { userId: fundFor }, body: { amount: value, currency } },
              `the balance of ${owner(fundFor)}`,
            )
          }
        />
      </div>
    </section>
  );
}

function CustodyWalletsSection({ state, owner, act }: SectionProps) {
  return (
    <Section id="custody-wallets" title="Custody wallets" count={state.custodyWallets.length}>
      <Table label="Custody wallets" head={['Wallet', 'Owner', 'Token', 'Balance', 'Fund']}>
        {state.custodyWallets.map((w) => (
          <tr key={w.id} data-id={w.id}>
            <td>
              <code>{w.wallet}</code> <Id id={w.id} />
            </td>
            <td>{owner(w.userId)}</td>
            <td>
              {w.token} on {w.network}
            </td>
            <td class="num">{amount(Number(w.balance), w.token)}</td>
            <td>
              <AmountForm
                id={`wallet-${w.id}`}
                label={`Amount in ${w.token} to fund wallet ${w.wallet}`}
                submit={(value) =>
                  act('fundWallet', { path: { walletId: w.id }, body: { amount: value } }, `wallet ${w.wallet}`)
                }
              />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function BankAccountsSection({ state, owner, act }: SectionProps) {
  return (
    <Section id="bank-accounts" title="Bank accounts" count={state.bankAccounts.length}>
      <Table label="Bank accounts" head={['Account', 'Owner', 'Holder', 'Status', 'Actions']}>
        {state.bankAccounts.map((a) => {
          const what = `account ${a.bankName} ${a.accountNumber}`;
          return (
            <tr key={a.accountId} data-id={a.accountId}>
              <td>
                {a.bankName} {a.accountType} {a.accountNumber}
              </td>
              <td>{owner(a.userId)}</td>
              <td>{a.accountHolderName}</td>
              <td>
                <Status value={a.status} />
              </td>
              <td>
                <Actions machine={bankAccountStates} state={a.status} id={a.accountId} what={what} act={act} />
              </td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}

function PayoutsSection({ state, owner, act }: SectionProps) {
  return (
    <Section id="payouts" title="Payouts" count={state.payouts.length}>
      <Table label="Payouts" head={['Payout', 'Owner', 'Amount', 'Method', 'Status', 'Actions']}>
        {state.payouts.map((p) => (
          <tr key={p.id} data-id={p.id}>
            <td>
              <Id id={p.id} />
            </td>
            <td>{owner(p.userId)}</td>
            <td class="num">{amount(p.amount, p.currency)}</td>
            <td>{p.paymentMethod}</td>
            <td>
              <Status value={p.status} />
            </td>
            <td>
              <Actions
                machine={payoutStates}
                state={p.status}
                id={p.id}
                what={`payout ${short(p.id)} of ${amount(p.amount, p.currency)}`}
                act={act}
              />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function OnRampsSection({ state, owner, act }: SectionProps) {
  return (
    <Section id="on-ramps" title="On-ramps" count={state.onRamps.length} wide>
      <Table label="On-ramps" head={['On-ramp', 'Owner', 'Pays', 'Receives', 'Status', 'Actions']}>
        {state.onRamps.map((o) => (
          <tr key={o.id} data-id={o.id}>
            <td>
              {o.numberCode} <Id id={o.id} />
            </td>
            <td>{owner(o.userId)}</td>
            <td class="num">
              {amount(o.amountOrigin, o.symbolOrigin)} by {o.paymentMethod}
            </td>
            <td class="num">{amount(o.amountDestination, o.symbolDestination)}</td>
            <td>
              <Status value={o.status} />
            </td>
            <td>
              <Actions machine={onRampStates} state={o.status} id={o.id} what={`on-ramp ${o.numberCode}`} act={act} />
              {o.checkoutUrl && o.status === 'PENDING_DEPOSIT' && (
                <a href={o.checkoutUrl} class="link-button">
                  Checkout<SrOnly> of on-ramp {o.numberCode}</SrOnly>
                </a>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function TransfersSection({ state, owner, act }: SectionProps) {
  return (
    <Section id="transfers" title="Wallet transfers" count={state.transfers.length}>
      <Table label="Wallet transfers" head={['Transfer', 'Owner', 'From → to', 'Amount', 'Status', 'Actions']}>
        {state.transfers.map((t) => (
          <tr key={t.id} data-id={t.id}>
            <td>
              <Id id={t.id} />
            </td>
            <td>{owner(t.userId)}</td>
            <td>
              <Id id={t.walletOriginId} /> → <Id id={t.walletDestinationId} />
            </td>
            <td class="num">{amount(t.amount, t.token)}</td>
            <td>
              <Status value={t.status} />
            </td>
            <td>
              <Actions
                machine={walletTransferStates}
                state={t.status}
                id={t.id}
                what={`transfer ${short(t.id)} of ${amount(t.amount, t.token)}`}
                act={act}
              />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function ExternalWalletsSection({ state, owner }: SectionProps) {
  return (
    <Section id="external-wallets" title="External wallets" count={state.externalWallets.length}>
      <Table label="External wallets" head={['Wallet', 'Owner', 'Token', 'Status']}>
        {state.externalWallets.map((e) => (
          <tr key={e.externalWalletId}>
            <td>
              <Id id={e.externalWalletId} />
            </td>
            <td>{owner(e.userId)}</td>
            <td>
              {e.token} on {e.network}
            </td>
            <td>
              <Status value={e.status} />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function WebhooksSection({ state }: SectionProps) {
  return (
    <Section id="webhooks" title="Business webhooks" count={state.webhooks.length}>
      <Table label="Business webhooks" head={['URL', 'Process', 'Active']}>
        {state.webhooks.map((w) => (
          <tr key={w.id}>
            <td class="url">{w.url}</td>
            <td>{w.process}</td>
            <td>
              <Status value={w.status ? 'active' : 'deleted'} />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function EndpointsSection({ state }: SectionProps) {
  return (
    <Section id="endpoints" title="Integration endpoints" count={state.endpoints.length}>
      <Table label="Integration endpoints" head={['Name', 'URL', 'Event', 'Active']}>
        {state.endpoints.map((e) => (
          <tr key={e.id}>
            <td>{e.name}</td>
            <td class="url">{e.url}</td>
            <td>{e.triggerEvent ?? <span class="muted">none</span>}</td>
            <td>
              <Status value={e.isActive ? 'active' : 'inactive'} />
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

/** The records of one tenant, a section each, and its timeline. */
function TenantView({
  state,
  events,
  deliveries,
  act,
}: {
  state: TenantState;
  events: Envelope[];
  deliveries: Delivery[];
  act: Act;
}) {
  const clientId = state.tenant.clientId;
  const names = new Map<string, string>([[clientId, `${state.tenant.name} (the client itself)`]]);
  for (const u of state.users) names.set(u.userId, [u.firstName, u.firstSurname].join(' '));
  const owner = (id: string) => names.get(id) ?? short(id);
  const sections = { state, owner, act };
  return (
    <div class="tenant">
      <h2 class="tenant-title">
        {state.tenant.name} <code class="id">{clientId}</code>
      </h2>
      <div class="grid">
        <UsersSection {...sections} />
        <BalancesSection {...sections} />
        <CustodyWalletsSection {...sections} />
        <BankAccountsSection {...sections} />
        <PayoutsSection {...sections} />
        <OnRampsSection {...sections} />
        <TransfersSection {...sections} />
        <ExternalWalletsSection {...sections} />
        <WebhooksSection {...sections} />
        <EndpointsSection {...sections} />
      </div>
      <Timeline events={events} deliveries={deliveries} act={act} />
    </div>
  );
}

const OUTCOME: Record<string, (httpStatus: number | null) => string> = {
  delivered: (s) => `HTTP ${s}`,
  http_status: (s) => `HTTP ${s}`,
  timeout: () => 'timeout',
  connection_error: () => 'refused',
};

function DeliveryTimeline({
  delivery,
  start,
  act,
  event,
}: {
  delivery: Delivery;
  start: number;
  act: Act;
  event: string;
}) {
  const points = [
    start,
    ...delivery.attempts.flatMap((a) => [Date.parse(a.time), Date.parse(a.finishedAt)]),
    ...(delivery.nextAttemptAt ? [Date.parse(delivery.nextAttemptAt)] : []),
  ];
  const end = Math.max(...points, start + 1000);
  const at = (t: number) => ({ left: `${(((t - start) / (end - start)) * 96 + 2).toFixed(2)}%` });
  const first = delivery.attempts.length === 0;
  const target = `${delivery.endpointKind === 'business' ? 'webhook' : 'endpoint'} ${delivery.url}`;
  return (
    <li class="delivery" data-testid="delivery" data-delivery-id={delivery.id} data-status={delivery.status}>
      <div class="delivery-head">
        <span class="target">{target}</span> <Status value={delivery.status} />
        {delivery.status !== 'skipped' && (
          <button
            type="button"
            onClick={() => act('redeliver', { path: { deliveryId: delivery.id } }, `${event} to ${target}`)}
          >
            Redeliver
            <SrOnly>
              {' '}
              {event} to {target}
            </SrOnly>
          </button>
        )}
      </div>
      <div class="track" aria-hidden="true">
        {delivery.attempts.map((a) => (
          <span
            key={a.attempt}
            class={`mark o-${a.outcome}`}
            style={at(Date.parse(a.time))}
            title={`Attempt ${a.attempt}: ${OUTCOME[a.outcome]!(a.httpStatus)}`}
          >
            {a.attempt}
          </span>
        ))}
        {delivery.nextAttemptAt && (
          <span class="mark next" style={at(Date.parse(delivery.nextAttemptAt))} title="next call" />
        )}
      </div>
      <ol class="attempts">
        {delivery.attempts.map((a) => (
          <li key={a.attempt} data-testid="attempt" data-outcome={a.outcome}>
            Attempt {a.attempt} at {clockTime(a.time)}: <strong>{OUTCOME[a.outcome]!(a.httpStatus)}</strong>
          </li>
        ))}
        {delivery.nextAttemptAt && (
          <li class="next" data-testid="next-retry">
            {first ? 'First call due' : 'Next retry'} at {clockTime(delivery.nextAttemptAt)}
          </li>
        )}
        {delivery.status === 'skipped' && (
          <li class="muted">Not sent: the endpoint was inactive when the event happened.</li>
        )}
      </ol>
    </li>
  );
}

function Timeline({ events, deliveries, act }: { events: Envelope[]; deliveries: Delivery[]; act: Act }) {
  const byEvent = new Map<string, Delivery[]>();
  for (const d of deliveries) byEvent.set(d.eventId, [...(byEvent.get(d.eventId) ?? []), d]);
  const shown = events.slice(-MAX_EVENTS).reverse();
  return (
    <section class="card timeline" aria-labelledby="events-title" data-testid="events">
      <h3 id="events-title">
        Events and deliveries <span class="count">({events.length})</span>
      </h3>
      {shown.length === 0 && <p class="muted">No event yet.</p>}
      {events.length > MAX_EVENTS && <p class="muted">The latest {MAX_EVENTS} are shown, newest first.</p>}
      {shown.map((e) => {
        const ds = byEvent.get(e.id) ?? [];
        return (
          <article
            key={e.id}
            class="event"
            data-testid="event"
            data-event={e.event}
            data-subject={String((e.data as { id?: unknown }).id ?? '')}
            aria-label={`${e.event} at ${clockTime(e.createdAt)}`}
          >
            <h4>
              {e.event} <small>{time(e.createdAt)}</small>
            </h4>
            {ds.length === 0 ? (
              <p class="muted">No endpoint or webhook receives this event.</p>
            ) : (
              <ul class="deliveries">
                {ds.map((d) => (
                  <DeliveryTimeline key={d.id} delivery={d} start={Date.parse(e.createdAt)} act={act} event={e.event} />
                ))}
              </ul>
            )}
          </article>
        );
      })}
    </section>
  );
}

function TokenForm({ onDone, wrong }: { onDone: () => void; wrong: boolean }) {
  const [value, setValue] = useState('');
  return (
    <main class="narrow">
      <h1>Ramp sandbox</h1>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          adminToken.set(value.trim());
          onDone();
        }}
      >
        <p>
          This sandbox runs with an admin token. Enter it to see and drive its tenants; it is kept for this tab only.
        </p>
        <label for="admin-token">Admin token</label>
        <input
          id="admin-token"
          type="password"
          autocomplete="off"
          required
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
        <div role="alert">{wrong && <p class="error">That token was refused.</p>}</div>
        <button type="submit" class="primary">
          Open the dashboard
        </button>
      </form>
    </main>
  );
}

const selectedFromHash = () => new URLSearchParams(location.hash.slice(1)).get('tenant');

/** The sandbox's clock, and a form to advance it. */
function ClockBar({ clock, act }: { clock: Schemas['Clock'] | null; act: Act }) {
  const [advanceBy, setAdvanceBy] = useState('1');
  return (
    <header class="top">
      <h1 class="brand">
        Ramp sandbox <span class="muted">dashboard</span>
      </h1>
      <div class="clock">
        <span>
          Sandbox time <output data-testid="clock">{clock ? time(clock.now) : '…'}</output>
          {clock && clock.offsetSeconds !== 0 && <span class="muted"> (+{clock.offsetSeconds} s)</span>}
        </span>
        <form
          class="inline"
          onSubmit={async (e) => {
            e.preventDefault();
            await act('advanceClock', { body: { seconds: Number(advanceBy) } }, `the clock by ${advanceBy} s`);
          }}
        >
          <label for="advance-seconds">Advance by (seconds)</label>
          <input
            id="advance-seconds"
            type="number"
            min="0.001"
            step="any"
            required
            value={advanceBy}
            onInput={(e) => setAdvanceBy((e.target as HTMLInputElement).value)}
          />
          <button type="submit">Advance clock</button>
        </form>
      </div>
    </header>
  );
}

/** The tenants, each a link that selects it; `current` is marked as the page. */
function TenantNav({ tenants, current }: { tenants: Schemas['TenantSummary'][]; current: string | undefined }) {
  return (
    <nav aria-label="Tenants" class="tenants">
      <h2>Tenants</h2>
      {tenants.length === 0 && <p class="muted">No tenant yet: create one with createTenant.</p>}
      <ul>
        {tenants.map((t) => (
          <li key={t.clientId}>
            <a href={`#tenant=${t.clientId}`} aria-current={t.clientId === current ? 'page' : undefined}>
              {t.name}
              <span class="muted small">{short(t.clientId)}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Dashboard() {
  const [auth, setAuth] = useState<'checking' | 'needed' | 'refused' | 'ok'>('checking');
  const [tenants, setTenants] = useState<Schemas['TenantSummary'][]>([]);
  const [clock, setClock] = useState<Schemas['Clock'] | null>(null);
  const [selected, setSelected] = useState<string | null>(selectedFromHash());
  const [state, setState] = useState<TenantState | null>(null);
  const [events, setEvents] = useState<Envelope[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const loading = useRef(false);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;

  async function refresh() {
    if (loading.current) return;
    loading.current = true;
    try {
      const list = await call<Schemas['TenantList']>('listTenants');
      setAuth('ok');
      setTenants(list.tenants);
      setClock(await call<Schemas['Clock']>('getClock'));
      const id = selectedRef.current ?? list.tenants.at(-1)?.clientId ?? null;
      if (id !== selectedRef.current) setSelected(id);
      if (id) {
        const [s, e, d] = await Promise.all([
          call<TenantState>('getTenantState', { path: { tenantId: id } }),
          call<Schemas['EventList']>('listEvents', { query: { tenant: id } }),
          call<Schemas['DeliveryList']>('listDeliveries', { query: { tenant: id } }),
        ]);
        if (selectedRef.current === id || selectedRef.current === null) {
          setState(s);
          setEvents(e.events);
          setDeliveries(d.deliveries);
        }
      }
    } catch (e) {
      if (e instanceof ControlError && e.status === 401) {
        setAuth(adminToken.get() ? 'refused' : 'needed');
        adminToken.clear();
      } else if (e instanceof ControlError && e.status === 404 && selectedRef.current) {
        setSelected(null);
        setState(null);
      } else setProblem(`Could not read the sandbox: ${(e as Error).message}`);
    } finally {
      loading.current = false;
    }
  }

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), POLL_MS);
    const onHash = () => {
      setSelected(selectedFromHash());
      setState(null);
    };
    addEventListener('hashchange', onHash);
    return () => {
      clearInterval(timer);
      removeEventListener('hashchange', onHash);
    };
  }, []);
  useEffect(() => void refresh(), [selected]);

  const act: Act = async (operationId, init, what) => {
    setProblem('');
    try {
      await call(operationId, init);
      setMessage(`${verb(operationId)} ${what}: done.`);
      loading.current = false;
      await refresh();
      return true;
    } catch (e) {
      setProblem(`${verb(operationId)} ${what}: ${(e as Error).message}`);
      return false;
    }
  };

  if (auth === 'checking') return <p class="loading">Loading…</p>;
  if (auth !== 'ok') return <TokenForm wrong={auth === 'refused'} onDone={() => void refresh()} />;
  return (
    <>
      <ClockBar clock={clock} act={act} />
      <div class="layout">
        <TenantNav tenants={tenants} current={selected ?? state?.tenant.clientId} />
        <main>
          <div class="live" role="status" aria-live="polite">
            {message}
          </div>
          <div role="alert">{problem && <p class="error">{problem}</p>}</div>
          {state ? (
            <TenantView state={state} events={events} deliveries={deliveries} act={act} />
          ) : (
            tenants.length > 0 && <p>Loading the tenant…</p>
          )}
        </main>
      </div>
    </>
  );
}

mount(<Dashboard />);
