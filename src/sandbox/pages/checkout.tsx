// The checkout page behind an on-ramp's depositInstructions.checkoutUrl (/sandbox/checkout/{checkoutId}): what is
// to be paid, how and where, and the tester's outcome, through getCheckout, payCheckout and rejectCheckout;
// then back to the on-ramp's redirectUrl when it has an http(s) one.
import { useEffect, useState } from 'preact/hooks';
import { amount, ControlError, call, linkId, mount, type Schemas } from './api.js';

type Checkout = Schemas['Checkout'];

/** Only an http(s) address is followed: anything else (a `javascript:` URL) is shown, never opened. */
const followable = (url: string | null) => {
  try {
    return url !== null && ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
};

function CheckoutPage() {
  const checkoutId = linkId();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    call<Checkout>('getCheckout', { path: { checkoutId } }).then(setCheckout, (e: unknown) =>
      setProblem(
        e instanceof ControlError && e.status === 404
          ? 'This checkout is unknown: it was never issued, or the sandbox was reset.'
          : String((e as Error).message),
      ),
    );
  useEffect(() => void load(), []);

  async function outcome(operationId: 'payCheckout' | 'rejectCheckout') {
    setBusy(true);
    setProblem(null);
    try {
      const result = await call<Schemas['CheckoutOutcome']>(operationId, { path: { checkoutId } });
      const word = result.status === 'COMPLETED' ? 'Payment completed' : 'Payment rejected';
      if (followable(result.redirectUrl)) {
        setDone(`${word}. Returning to ${result.redirectUrl}…`);
        location.assign(result.redirectUrl!);
        return;
      }
      setDone(`${word}. The on-ramp is ${result.status}.`);
      await load();
    } catch (e) {
      setProblem((e as Error).message);
      await load();
    } finally {
      setBusy(false);
    }
  }

  const settled = checkout && checkout.status !== 'PENDING_DEPOSIT';
  return (
    <main class="narrow">
      <p class="sandbox-note">
        Sandbox checkout: it stands in for the bank or wallet where the user pays. Nothing here is the real service.
      </p>
      <h1>{checkout ? `Pay with ${checkout.paymentMethod}` : 'Checkout'}</h1>
      {!checkout && !problem && <p>Loading the payment…</p>}
      {checkout && (
        <dl class="facts">
          <dt>To pay</dt>
          <dd data-testid="checkout-amount">{amount(checkout.amount, checkout.currency)}</dd>
          <dt>You receive</dt>
          <dd>{amount(checkout.amountDestination, checkout.symbolDestination)}</dd>
          <dt>Method</dt>
          <dd>{checkout.paymentMethod}</dd>
          {checkout.bankName !== null && (
            <>
              <dt>Bank</dt>
              <dd data-testid="checkout-bank">
                {checkout.bankName} ({checkout.bankCode})
              </dd>
            </>
          )}
          {checkout.phone !== null && (
            <>
              <dt>Phone</dt>
              <dd>{checkout.phone}</dd>
            </>
          )}
          <dt>Reference</dt>
          <dd>{checkout.reference}</dd>
          <dt>On-ramp</dt>
          <dd>
            {checkout.numberCode} · <span data-testid="checkout-status">{checkout.status}</span>
          </dd>
          <dt>Returns to</dt>
          <dd>{checkout.redirectUrl ?? 'nowhere (no redirectUrl was given)'}</dd>
        </dl>
      )}
      <div role="status" aria-live="polite">
        {done && <p class="ok">{done}</p>}
        {!done && settled && <p class="notice">This on-ramp is {checkout.status}: there is nothing left to pay.</p>}
      </div>
      <div role="alert">{problem && <p class="error">{problem}</p>}</div>
      {checkout && !settled && !done && (
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => outcome('payCheckout')}>
            Pay {amount(checkout.amount, checkout.currency)}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => outcome('rejectCheckout')}>
            Reject the payment
          </button>
        </div>
      )}
      {checkout && settled && followable(checkout.redirectUrl) && (
        <p>
          <a href={checkout.redirectUrl!}>Return to {checkout.redirectUrl}</a>
        </p>
      )}
    </main>
  );
}

mount(<CheckoutPage />);
