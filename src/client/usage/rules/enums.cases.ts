// The changes each rule of enums.ts fires on.
import { type RuleCase, schemas } from '../../../testing/compat-cases.js';

const payout = (d: any) => schemas(d).CreatePayoutRequest.properties;
const onRamp = (d: any) => schemas(d).CreateOnRampRequest;
const webhook = (d: any) => schemas(d).Webhook.properties;

export const CASES: RuleCase[] = [
  {
    rule: 'request-enum-added',
    name: 'a request field closed to an enum',
    family: 'v1',
    change: (d) => (payout(d).currency.enum = ['COP']),
    line: /createPayout.*request body: currency: now a closed enum \(COP\)/,
    reverse: 'request-enum-removed',
  },
  {
    rule: 'request-enum-removed',
    name: 'a request enum opened',
    family: 'v1',
    change: (d) => delete onRamp(d).properties.paymentMethod.enum,
    line: /createOnRamp.*request body: paymentMethod: enum \(.*\) removed; any value may now be sent/,
  },
  {
    rule: 'request-enum-value-removed',
    name: 'a value removed from a closed request enum',
    family: 'v1',
    change: (d) => (onRamp(d).properties.paymentMethod.enum = ['PSE', 'NEQUI']),
    line: /createOnRamp.*request body: paymentMethod: enum value\(s\) DAVIPLATA removed/,
    reverse: 'request-enum-value-added',
  },
  {
    rule: 'request-enum-value-added',
    name: 'a value added to a request enum',
    family: 'business',
    change: (d) => schemas(d).CreateCustodyWalletRequest.properties.network.enum.push('STELLAR'),
    line: /request body: network: enum value\(s\) STELLAR added$/m,
  },
  {
    rule: 'response-enum-value-added',
    name: 'a value added to a closed response enum',
    family: 'v1',
    change: (d) => schemas(d).TierEscalation.properties.actionType.enum.push('CALL_CENTER'),
    line: /createOnRamp.*response 201: tierEscalation<oneOf\[0\]>\.actionType: enum value\(s\) CALL_CENTER added to a closed enum in a response/,
    reverse: 'response-enum-value-removed',
  },
  {
    rule: 'response-enum-value-removed',
    name: 'a value removed from a response enum',
    family: 'business',
    change: (d) => (webhook(d).process.enum = ['ramp', 'compliance']),
    line: /deleteWebhook.*response 200: process: enum value\(s\) wallet_transfer removed/,
  },
  {
    rule: 'response-enum-removed',
    name: 'a response enum opened',
    family: 'business',
    change: (d) => delete webhook(d).process.enum,
    line: /deleteWebhook.*response 200: process: enum \(ramp, compliance, wallet_transfer\) removed; any value may now arrive/,
    reverse: 'response-enum-added',
  },
  {
    rule: 'response-enum-added',
    name: 'a response field closed to an enum',
    family: 'business',
    before: (d) => delete webhook(d).process.enum,
    change: (d) => (webhook(d).process.enum = ['ramp']),
    line: /deleteWebhook.*response 200: process: now a closed enum \(ramp\)/,
  },
];
