import createClient from 'openapi-fetch';
const repo = '/work/main';
const { createBusinessClient } = await import(repo + '/dist/lib/index.js');
const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const BODY = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ id: `1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a1${i}`, accountHolderName: 'Cafetera Andina S.A.S.', accountNickname: `Cuenta ${i}`, accountNumber: `031000458${70 + i}`, accountType: 'ahorros', bank: { name: 'BANCOLOMBIA' }, countryFiat: { symbolFiat: 'COP', countryId: 'CO' }, metadata: [{ key: 'costCenter', value: `CC-${100 + i}` }], status: 'accepted', registerDate: `2026-09-0${i + 1} 11:20:15.772340`, userId: CLIENT_ID })).concat([]));
const H = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };
const stub = (async (input: any, init?: any) => { const s = init?.signal ?? input?.signal; if (s?.aborted) throw s.reason; return new Response(BODY, { status: 200, headers: H }); }) as typeof fetch;
const baseUrl = 'https://api.example.co';
const mw = createClient<any>({ baseUrl, fetch: stub });
mw.use({ onRequest({ request }) { request.headers.set('authorization', 'Bearer bench-token'); return request; } });
const ramp = createBusinessClient({ baseUrl, fetch: stub, auth: { token: 'bench-token' } });
const params = { params: { path: { clientId: CLIENT_ID } } };
const variants: [string, () => Promise<unknown>][] = [['mw', () => mw.GET('/api/accounts/{clientId}', params)], ['ramp', () => ramp.listBankAccounts(params)]];
const rounds = Number(process.argv[2] ?? 41), per = 4000;
for (const [, c] of variants) for (let i = 0; i < 3000; i++) await c();
const ratios: number[] = [];
for (let r = 0; r < rounds; r++) {
  const t: Record<string, number> = {};
  for (const [n, c] of Math.random() < 0.5 ? variants : [...variants].reverse()) { const s = performance.now(); for (let i = 0; i < per; i++) await c(); t[n] = (performance.now() - s) * 1000 / per; }
  ratios.push(t.ramp! / t.mw!);
}
ratios.sort((a, b) => a - b);
const q = (p: number) => ratios[Math.round(p * (ratios.length - 1))]!.toFixed(3);
console.log(`ramp / mw: median ${q(0.5)} (p10 ${q(0.1)} – p90 ${q(0.9)}), ${rounds} rounds`);
