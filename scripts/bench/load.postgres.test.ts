// `npm run sandbox:load`, small: the same machinery (two sandbox processes on one PostgreSQL database, flows
// across both, one SIGKILLed half-way, the drain, the checks) with 3 clients for 3 s, so it cannot rot; then
// the checks themselves are shown to fail on a database that lost what the clients were told was stored.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../src/testing/postgres.js';
import { runLoad } from './load.js';
import { checkDatabase } from './load-checks.js';
import { formatReport } from './load-report.js';

const adminUrl = inject('postgresUrl');

describe('sandbox:load, run small', () => {
  it('runs flows on two instances of one database, survives a SIGKILL of one, and every check holds; the checks fail on a tampered database', async () => {
    const databaseUrl = await createDatabase(adminUrl!, 'load');
    const report = await runLoad({ databaseUrl, clients: 3, seconds: 3 });
    const text = formatReport(report);
    expect(
      report.checks.filter((c) => !c.pass),
      text,
    ).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.killedAtSeconds).toBeGreaterThan(1);
    expect(report.flows.completed, text).toBeGreaterThan(0);
    const operations = report.operations.map((r) => r.operation);
    for (const op of [
      'createTenant',
      'registerUser',
      'approveUser',
      'createCustodyWallet',
      'createBankAccount',
      'fundUser',
      'createPayout',
      'createOnRamp',
      'payOnRamp',
    ])
      expect(operations).toContain(op);
    expect(text).toMatch(/^PASS {2}every event reached every healthy endpoint exactly once/m);

    // A lost payout, a wallet credited from nowhere, a delivery the healthy receiver got twice for no reason (a
    // call the log does not have), and a failing endpoint short of one scheduled call.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const [payout] = [...report.evidence.ledger.created].find(([, table]) => table === 'payouts')!;
      await db.query('delete from payouts where id = $1', [payout]);
      await db.query(
        'update custody_wallets set balance = balance + 1 where id = (select id from custody_wallets limit 1)',
      );
      const [key, times] = [...report.evidence.receivers.healthy.calls].find(([, t]) => t.length === 1)!;
      report.evidence.receivers.healthy.calls.set(key, [...times, performance.now()]);
      // An attempt claimed and counted but never made (what a killed instance once left): the delivery's claims
      // reach the schedule while one call is missing from its attempts and from the failing endpoint's log.
      const [lostCall] = (
        await db.query<{ id: string; url: string; event_id: string }>(
          "select id::text as id, url, event_id::text as event_id from sandbox_deliveries where status = 'failed' limit 1",
        )
      ).rows;
      await db.query('delete from sandbox_delivery_attempts where delivery_id = $1 and attempt = 1', [lostCall!.id]);
      const failingReceiver = Object.values(report.evidence.receivers).find((r) =>
        r.calls.has(`${lostCall!.url}|${lostCall!.event_id}`),
      )!;
      failingReceiver.calls.set(
        `${lostCall!.url}|${lostCall!.event_id}`,
        failingReceiver.calls.get(`${lostCall!.url}|${lostCall!.event_id}`)!.slice(1),
      );
      const failed = (await checkDatabase(db, report.evidence)).filter((c) => !c.pass).map((c) => c.name);
      expect(failed).toEqual(
        expect.arrayContaining([
          'every create answered with success is in the database',
          expect.stringMatching(/^every user ledger sums/),
          expect.stringMatching(/^every wallet ledger sums/),
          'every call an endpoint received is in the delivery log (matched one by one to a logged attempt)',
          'every event reached every healthy endpoint exactly once (by event id)',
          expect.stringMatching(/^every failing endpoint's delivery made the scheduled/),
        ]),
      );
    } finally {
      await db.end();
    }
  }, 60_000);
});
