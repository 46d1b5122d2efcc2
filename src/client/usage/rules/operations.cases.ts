// The changes each rule of operations.ts fires on.
import type { RuleCase } from '../../../testing/compat-cases.js';

const payoutPath = '/api/v1/admin/fiats/{user_id}/payout';

export const CASES: RuleCase[] = [
  {
    rule: 'operation-removed',
    name: 'a removed operation',
    family: 'business',
    change: (d) => delete d.paths['/api/parameters/banks'],
    line: /GET \/api\/parameters\/banks \(listBanks\): operation removed/,
    reverse: 'operation-added',
  },
  {
    rule: 'operation-added',
    name: 'a new operation',
    family: 'business',
    change: (d) =>
      (d.paths['/api/parameters/networks'] = {
        get: { operationId: 'listNetworks', responses: { '200': { description: 'ok' } } },
      }),
    line: /GET \/api\/parameters\/networks \(listNetworks\): operation added/,
  },
  {
    rule: 'path-parameter-renamed',
    name: 'a renamed path parameter',
    family: 'v1',
    change: (d) => {
      const item = d.paths[payoutPath];
      delete d.paths[payoutPath];
      item.post.parameters = [{ ...d.components.parameters.UserIdPath, name: 'userId' }];
      delete item.parameters;
      d.paths['/api/v1/admin/fiats/{userId}/payout'] = item;
    },
    line: /^POST \/api\/v1\/admin\/fiats\/\{userId\}\/payout \(createPayout\): path parameter renamed: \{user_id\} to \{userId\} \(was \/api\/v1\/admin\/fiats\/\{user_id\}\/payout\); typed clients pass path parameters by name$/,
  },
  {
    rule: 'operation-id-changed',
    name: 'a changed operationId',
    family: 'business',
    change: (d) => (d.paths['/api/parameters/banks'].get.operationId = 'getBanks'),
    line: /operationId changed from listBanks to getBanks/,
  },
  {
    rule: 'event-removed',
    name: 'a removed event',
    family: 'v1',
    change: (d) => delete d.webhooks['wallet.created'],
    line: /event wallet\.created: event removed/,
    reverse: 'event-added',
  },
  {
    rule: 'event-added',
    name: 'a new event',
    family: 'v1',
    change: (d) => (d.webhooks['wallet.archived'] = d.webhooks['wallet.created']),
    line: /event wallet\.archived: event added/,
  },
];
