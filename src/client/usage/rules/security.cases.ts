// The changes each rule of security.ts fires on.
import type { RuleCase } from '../../../testing/compat-cases.js';

export const CASES: RuleCase[] = [
  {
    rule: 'security-added',
    name: 'security added to a public operation',
    family: 'business',
    change: (d) => (d.paths['/api/parameters/banks'].get.security = [{ bearerAuth: [] }]),
    line: /GET \/api\/parameters\/banks \(listBanks\): security added: now requires bearerAuth/,
    reverse: 'security-removed',
  },
  {
    rule: 'security-removed',
    name: 'a secured operation made public',
    family: 'business',
    change: (d) => (d.paths['/api/infoClient'].get.security = []),
    line: /\(getClientInfo\): security removed: now public/,
  },
  {
    rule: 'security-changed',
    name: 'another security scheme',
    family: 'business',
    change: (d) => (d.paths['/api/infoClient'].get.security = [{ apiKey: [] }]),
    line: /\(getClientInfo\): security changed from bearerAuth to apiKey/,
  },
];
