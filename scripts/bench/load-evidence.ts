// What a run of `npm run sandbox:load` leaves for its checks: the ledger the flows keep of what the sandbox
// acknowledged, the receivers' logs, the kill's time and the clock's moves; and the shape of a check.
import type { ReceiverBehaviour as Behaviour, EventReceiver as Receiver } from '../../src/testing/event-receiver.js';

export interface Check {
  name: string;
  pass: boolean;
  figures: string;
}

/** A check that holds when `problems` is empty; its figures name the first few. */
export const noProblems = (name: string, figures: string, problems: string[]): Check => ({
  name,
  pass: problems.length === 0,
  figures: problems.length ? `${figures}; ${problems.length} problems: ${problems.slice(0, 3).join('; ')}` : figures,
});

export interface Ledger {
  /** ID -> table, for every create that was answered with success. */
  created: Map<string, string>;
  /** ID -> the state the last acknowledged transition left it in. */
  states: Map<string, { table: string; status: string }>;
  /** user -> COP acknowledged by fundUser, and COP sent in fundUser calls lost with the killed instance. */
  funded: Map<string, { known: number; lost: number }>;
  /** Concurrent payouts for one balance: how many were accepted against how many the balance covered. */
  races: { raced: number; overAccepted: number };
  unexpected: string[];
}

export const PAYOUT_RACE = { payouts: 4, amount: 150_000 };

/** What the clients and the receivers saw, for the checks against the database. */
export interface Evidence {
  ledger: Ledger;
  receivers: Record<Behaviour, Receiver>;
  /** performance.now() when the kill was sent. */
  killedAtMs: number;
  /** The sandbox clock's offset before the drain, and each move the drain made (performance.now() around it). */
  clock: { offsetMs: number; moves: { sentAt: number; answeredAt: number; offsetMs: number }[] };
}
