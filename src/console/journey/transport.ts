// How the journey console sends a step: with the `ramp-api` client of the step's family, as the operation
// console sends (../send.ts), the step's token given to the client as it is; the answer checked as the operation
// console checks it (../model.ts: status documented, body against the schema).
import type { OperationEntry } from '../../client/lookup/index.js';
import type { Route } from '../../sandbox/contract/router.js';
import { checkAnswer } from '../model.js';
import type { ClientInfo } from '../samples.js';
import { type Auth, type Exchange, send } from '../send.js';
import type { PreparedCall, StepAnswer } from './run.js';

export interface FamilyRoutes {
  client: ClientInfo;
  routes: readonly Route[];
}

/** The answer of one step, with the exchange as it went over the wire (for the reader to open). */
export interface SentStep extends StepAnswer {
  exchange: Exchange;
}

export function journeyTransport(baseUrl: string, families: Record<string, FamilyRoutes>) {
  return async (call: PreparedCall): Promise<SentStep> => {
    const family = families[call.family];
    const route = family?.routes.find((r) => r.entry.operationId === call.operationId);
    if (!family || !route) throw new Error(`The console has no description of ${call.family} ${call.operationId}.`);
    const entry: OperationEntry = route.entry;
    const auth: Auth =
      call.token === undefined
        ? undefined
        : family.client.auth === 'adminToken'
          ? { adminToken: call.token }
          : { token: call.token };
    const result = await send({
      family: call.family,
      baseUrl,
      auth,
      operationId: call.operationId,
      ...(family.client.token ? { token: family.client.token } : {}),
      call: {
        path: call.path,
        query: call.query,
        header: call.header,
        ...(call.body === undefined ? {} : { body: call.body }),
      },
      takesBody: entry.operation.requestBody !== undefined,
      extraHeaders: {},
    });
    if (!result.ok) throw new Error(result.message);
    const { exchange } = result;
    const verdict = checkAnswer(route, entry, exchange.status, exchange.bodyText);
    return {
      status: exchange.status,
      headers: Object.fromEntries(exchange.responseHeaders),
      bodyText: exchange.bodyText,
      problems: verdict.problems.map((p) => `${p.where} ${p.message}`),
      exchange,
    };
  };
}
