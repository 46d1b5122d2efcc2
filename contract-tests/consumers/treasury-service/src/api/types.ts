// The service's names for the descriptions' types.
import type { components as BusinessComponents } from 'ramp-api/business';
import type { components as V1Components } from 'ramp-api/v1';

export type BusinessSchemas = BusinessComponents['schemas'];
export type V1Schemas = V1Components['schemas'];

export type Wallet = BusinessSchemas['CustodyWallet'];
export type WalletSummary = Pick<Wallet, 'id' | 'wallet' | 'status'>;
export type WalletStatus = Wallet['status'];
export type Transfer = BusinessSchemas['WalletTransfer'];
export type TransferView = Omit<Transfer, 'isGroup' | 'parentId' | 'trackType'>;
export type BankAccount = BusinessSchemas['BankAccount'];
export type Payout = V1Schemas['Payout'];
export type PayoutDraft = Partial<V1Schemas['CreatePayoutRequest']>;
export type OnRamp = V1Schemas['CreateOnRampResponse'];
