// The changes each rule of responses.ts fires on.
import type { RuleCase } from '../../../testing/compat-cases.js';

export const CASES: RuleCase[] = [
  {
    rule: 'success-status-removed',
    name: 'a success status changed',
    family: 'v1',
    change: (d) => {
      const op = d.paths['/api/v1/admin/fiats/{user_id}/payout'].post;
      op.responses['200'] = op.responses['201'];
      delete op.responses['201'];
    },
    line: /POST \/api\/v1\/admin\/fiats\/\{user_id\}\/payout \(createPayout\): success response 201 changed to 200; clients check for 201/,
  },
  {
    rule: 'success-status-removed',
    name: 'a success status removed',
    family: 'business',
    change: (d) => delete d.paths['/api/webhooks/{clientId}/{webhook_id}'].delete.responses['200'],
    line: /deleteWebhook\): success response 200 removed/,
  },
  {
    rule: 'response-status-removed',
    name: 'an error status no longer documented',
    family: 'business',
    change: (d) => delete d.paths['/api/parameters/banks'].get.responses['429'],
    line: /listBanks\): response 429 no longer documented/,
    reverse: 'response-status-added',
  },
  {
    rule: 'response-status-added',
    name: 'a new error status',
    family: 'business',
    change: (d) => (d.paths['/api/parameters/banks'].get.responses['502'] = { description: 'Bad gateway.' }),
    line: /listBanks\): response 502 added/,
  },
];
