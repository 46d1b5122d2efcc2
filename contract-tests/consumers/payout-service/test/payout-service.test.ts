// The payout service against a sandbox: a payout made, refused for want of funds, refused for an account not
// accepted, and refused for a user the tenant does not have; the balance check on a custody wallet; the report line.
import { randomUUID } from 'node:crypto';
import { createBusinessClient, orThrow } from 'ramp-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayoutSandbox, startPayoutSandbox } from './sandbox.js';

let run: PayoutSandbox;
let clientId: string;
let service: typeof import('../src/payouts.js');
let balance: typeof import('../src/balance.js');

beforeAll(async () => {
  run = await startPayoutSandbox();
  clientId = run.tenant.clientId;
  service = await import('../src/payouts.js');
  balance = await import('../src/balance.js');
});

afterAll(async () => {
  await run?.sandbox.close();
});

/** An accepted bank account of the client itself, and money on its balance. */
async function fundedAccount(amount: number): Promise<string> {
  const account = await orThrow(run.control.createBankAccount({ body: { clientId } }));
  await orThrow(run.control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
  await orThrow(run.control.fundUser({ params: { path: { userId: clientId } }, body: { amount, currency: 'COP' } }));
  return account.accountId;
}

describe('payOut', () => {
  it('pays out to an accepted account: the payout and its report line', async () => {
    const accountId = await fundedAccount(500_000);
    const outcome = await service.payOut(clientId, 250_000, accountId);
    expect(outcome).toMatchObject({ ok: true, status: 'PENDING', line: '250000 COP' });
  });

  it('says "insufficient funds" on a 400', async () => {
    const accountId = await fundedAccount(1_000);
    expect(await service.payOut(clientId, 90_000_000, accountId)).toEqual({ ok: false, reason: 'insufficient funds' });
  });

  it('says "refused" on a 422 (an account not accepted)', async () => {
    const account = await orThrow(run.control.createBankAccount({ body: { clientId } }));
    expect(await service.payOut(clientId, 1_000, account.accountId)).toEqual({ ok: false, reason: 'refused' });
  });

  it('gives the status of any other refusal (a user the tenant does not have)', async () => {
    expect(await service.payOut(randomUUID(), 1_000, randomUUID())).toEqual({ ok: false, reason: 'HTTP 403' });
  });
});

describe('hasBalance', () => {
  it('compares a custody wallet balance with what is needed', async () => {
    const business = createBusinessClient({
      baseUrl: run.sandbox.url,
      auth: { token: process.env.RAMP_BUSINESS_TOKEN ?? '' },
    });
    const wallet = await orThrow(
      business.createCustodyWallet({ params: { path: { clientId, userId: clientId } }, body: { token: 'USDC' } }),
    );
    await orThrow(run.control.fundWallet({ params: { path: { walletId: wallet.id } }, body: { amount: 50 } }));
    expect(await balance.hasBalance(clientId, clientId, wallet.id, 40)).toBe(true);
    expect(await balance.hasBalance(clientId, clientId, wallet.id, 60)).toBe(false);
  });

  it('counts a wallet it cannot read as empty', async () => {
    expect(await balance.hasBalance(clientId, clientId, randomUUID(), 1)).toBe(false);
  });
});
