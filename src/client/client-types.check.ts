// Compile-time tests, checked by `tsc` in `npm test` (never run): the generated types reject wrong calls.
// Each `@ts-expect-error` fails the build if the line below it ever starts to compile.
import { expectTypeOf } from 'vitest';
import type { components as BusinessComponents } from './business/index.js';
import type { paths as BusinessPaths } from './generated/business.js';
import {
  type ApiError,
  type CallResult,
  type createBusinessClient,
  type createV1Client,
  type ErrorBody,
  type Middleware,
  orThrow,
} from './index.js';
import type { components as V1Components } from './v1/index.js';

declare const business: ReturnType<typeof createBusinessClient>;
declare const v1: ReturnType<typeof createV1Client>;
const clientId = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';

export async function typeChecks(): Promise<void> {
  // A path that the description does not have.
  // @ts-expect-error '/api/wallets' is not a Business API path
  await business.GET('/api/wallets');
  // A path that exists, with a method it does not have.
  // @ts-expect-error the bank directory has no POST
  await business.POST('/api/parameters/banks');
  // An operationId that does not exist.
  // @ts-expect-error there is no createBank operation
  await business.createBank();

  // A missing required path parameter.
  // @ts-expect-error clientId is required
  await business.listBankAccounts({ params: { path: {} } });

  // A missing required body field: payouts need destinationId.
  // @ts-expect-error destinationId is required
  await v1.createPayout({ params: { path: { user_id: clientId } }, body: { amount: 1, currency: 'COP' } });
  // A wrong field type: amount is a number.
  await v1.createPayout({
    params: { path: { user_id: clientId } },
    // @ts-expect-error amount must be a number
    body: { amount: '1500000', currency: 'COP', destinationId: clientId },
  });
  // A value outside a closed enum.
  await business.createCustodyWallet({
    params: { path: { clientId, userId: clientId } },
    // @ts-expect-error network is POLYGON or SUI
    body: { token: 'USDC', network: 'ETHEREUM' },
  });
  // The same checks hold for the path-based call.
  await v1.POST('/api/v1/admin/fiats/{user_id}/onramp', {
    params: { path: { user_id: clientId } },
    // @ts-expect-error destination is required on an on-ramp
    body: { amount: 1 },
  });

  // Fields with a default stay optional in requests (the service fills them in).
  await business.createCustodyWallet({ params: { path: { clientId, userId: clientId } }, body: { token: 'USDC' } });

  // Results are typed from the description.
  const wallets = await orThrow(business.listCustodyWallets({ params: { path: { clientId, userId: clientId } } }));
  expectTypeOf(wallets).toEqualTypeOf<BusinessComponents['schemas']['CustodyWallet'][]>();
  const created = await orThrow(
    v1.createOnRamp({
      params: { path: { user_id: clientId } },
      body: { amount: 1, destination: { type: 'EXTERNAL', externalWalletId: clientId } },
    }),
  );
  expectTypeOf(created.tierEscalation).toEqualTypeOf<V1Components['schemas']['TierEscalation'] | null>();
  expectTypeOf(created.tierEscalation!.actionType).toEqualTypeOf<
    'FORM_URL' | 'QR_APP' | 'VIDEO_KYC' | 'DOC_UPLOAD' | 'NOTIFY_ONLY' | 'BLOCK'
  >();

  // Error bodies are typed per operation.
  const result = await v1.createOnRamp({
    params: { path: { user_id: clientId } },
    body: { amount: 1, destination: { type: 'EXTERNAL', externalWalletId: clientId } },
  });
  expectTypeOf<ErrorBody<typeof result>>().toEqualTypeOf<V1Components['schemas']['ErrorBody']>();
  expectTypeOf<ApiError<ErrorBody<typeof result>>['body']>().toEqualTypeOf<V1Components['schemas']['ErrorBody']>();

  // Calls by path, their results and middleware are the package's own types (./core/calls.ts).
  const listed = await business.GET('/api/parameters/banks');
  expectTypeOf(listed).toEqualTypeOf<
    CallResult<BusinessPaths['/api/parameters/banks']['get'], undefined, `${string}/${string}`>
  >();
  const tagging: Middleware = {
    onRequest({ request }) {
      request.headers.set('x-team', 'payouts');
    },
  };
  business.use(tagging);
  // @ts-expect-error a middleware has at least one hook
  business.use({});
}
