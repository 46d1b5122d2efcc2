// The call every variant of `npm run bench` makes (the client's bank account list, six accounts, with a bearer
// token), the variants that make it each their own way, and the stub fetch that answers it in-process.
import axios from 'axios';
import ky from 'ky';
import createClient, { type Middleware } from 'openapi-fetch';
import { businessOperations, type paths } from '../../src/client/business/index.js';
import type * as RampApi from '../../src/client/index.js';

export const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
export const TOKEN = 'bench-token';
const PATH = businessOperations.listBankAccounts.path.replace('{clientId}', CLIENT_ID);
/** A realistic answer: six bank accounts of one client, as listBankAccounts returns them. */
export const BODY = JSON.stringify(
  ['BANCOLOMBIA', 'DAVIVIENDA', 'BANCO DE BOGOTA', 'BBVA COLOMBIA', 'NEQUI', 'BANCO POPULAR'].map((bank, i) => ({
    id: `1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a1${i}`,
    accountHolderName: 'Cafetera Andina S.A.S.',
    accountNickname: `Cuenta ${bank.toLowerCase()}`,
    accountNumber: `031000458${70 + i}`,
    accountType: i % 2 ? 'corriente' : 'ahorros',
    bank: { name: bank },
    countryFiat: { symbolFiat: 'COP', countryId: 'CO' },
    metadata: [{ key: 'costCenter', value: `CC-${100 + i}` }],
    status: i === 5 ? 'in_review' : 'accepted',
    registerDate: `2026-09-0${i + 1} 11:20:15.772340`,
    userId: CLIENT_ID,
  })),
);
const JSON_HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };
const AUTH = { authorization: `Bearer ${TOKEN}` };

export type Call = () => Promise<unknown>;

/** The client's factory, from the built package (`dist/lib`) the bench loads. */
export type CreateBusinessClient = typeof RampApi.createBusinessClient;

/** The variants, each doing the same call (the bank account list, with a bearer token) its own way. */
export function variants(
  createBusinessClient: CreateBusinessClient,
  baseUrl: string,
  fetchImpl: typeof fetch,
): [string, Call][] {
  const url = baseUrl + PATH;
  const bare = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const withMiddleware = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('authorization', AUTH.authorization);
      return request;
    },
  };
  withMiddleware.use(auth);
  const kyClient = ky.create({
    prefixUrl: baseUrl,
    fetch: fetchImpl,
    hooks: { beforeRequest: [(request) => request.headers.set('authorization', AUTH.authorization)] },
  });
  const axiosClient = axios.create({ adapter: 'fetch', env: { fetch: fetchImpl } } as Parameters<
    typeof axios.create
  >[0]);
  const ramp = createBusinessClient({ baseUrl, fetch: fetchImpl, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  return [
    ['fetch + json()', async () => (await fetchImpl(url, { headers: AUTH })).json()],
    [
      'fetch(new Request(url, init)) + json()',
      async () => (await fetchImpl(new Request(url, { headers: AUTH }))).json(),
    ],
    ['openapi-fetch', () => bare.GET('/api/accounts/{clientId}', { ...params, headers: AUTH })],
    ['openapi-fetch + auth middleware', () => withMiddleware.GET('/api/accounts/{clientId}', params)],
    ['ky + beforeRequest hook', () => kyClient.get(PATH.slice(1)).json()],
    ['axios (fetch adapter)', () => axiosClient.get(url, { headers: AUTH })],
    ['ramp-api client (auth, retries, timeout)', () => ramp.listBankAccounts(params)],
  ];
}

/** A stub fetch that honours the signal it is given and answers a fresh Response, as a server would. */
export const stub = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  if (signal?.aborted) throw signal.reason;
  return new Response(BODY, { status: 200, headers: JSON_HEADERS });
}) as typeof fetch;
