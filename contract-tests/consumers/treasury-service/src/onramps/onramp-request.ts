// The on-ramp the service asks for: pesos paid through a wallet app, the stablecoin sent to an outside wallet.
import type { V1Schemas } from '../api/types.js';

type OnRampRequest = V1Schemas['CreateOnRampRequest'];

export function onRampRequest(amount: number, phone: string, externalWalletId: string): OnRampRequest {
  const request: OnRampRequest = {
    amount,
    paymentMethod: 'NEQUI',
    phone,
    destination: { type: 'EXTERNAL', externalWalletId },
  };
  return request;
}
