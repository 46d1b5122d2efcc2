// The changes each rule of parameters.ts fires on.
import type { RuleCase } from '../../../testing/compat-cases.js';

/** A query parameter of type string. */
const query = (name: string, required: boolean) => ({ name, in: 'query', required, schema: { type: 'string' } });

export const CASES: RuleCase[] = [
  {
    rule: 'parameter-removed',
    name: 'a removed query parameter',
    family: 'business',
    change: (d) => (d.paths['/api/accounts/{clientId}'].get.parameters = []),
    line: /listBankAccounts.*parameter query userId removed/,
  },
  {
    rule: 'parameter-became-required',
    name: 'an optional parameter made required',
    family: 'business',
    change: (d) => (d.components.parameters.AccountOwnerId.required = true),
    line: /listBankAccounts.*parameter query userId is now required/,
  },
  {
    rule: 'required-parameter-added',
    name: 'a new required parameter',
    family: 'v1',
    change: (d) => d.paths['/api/v1/provider/kyc/user/generateurl/{user_id}'].post.parameters.push(query('lang', true)),
    line: /generateKycUrl.*required parameter query lang added/,
  },
  {
    rule: 'optional-parameter-added',
    name: 'a new optional parameter',
    family: 'business',
    change: (d) => d.paths['/api/accounts/{clientId}'].get.parameters.push(query('status', false)),
    line: /listBankAccounts.*optional parameter query status added/,
  },
];
