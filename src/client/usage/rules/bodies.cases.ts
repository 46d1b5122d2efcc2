// The changes each rule of bodies.ts fires on.
import type { RuleCase } from '../../../testing/compat-cases.js';

const payout = (d: any) => d.paths['/api/v1/admin/fiats/{user_id}/payout'].post;
const banks = (d: any) => d.paths['/api/parameters/banks'].get;
const jsonBody = { 'application/json': { schema: { type: 'object' } } };

/** The JSON media type of `content` also offered as `type`, or (`replace`) offered as `type` alone. */
const offerAs = (content: any, type: string, replace = false) => {
  content[type] = content['application/json'];
  if (replace) delete content['application/json'];
};

export const CASES: RuleCase[] = [
  {
    rule: 'request-body-became-required',
    name: 'a required request body added',
    family: 'business',
    change: (d) => (banks(d).requestBody = { required: true, content: jsonBody }),
    line: /listBanks\): required request body added/,
  },
  {
    rule: 'request-body-removed',
    name: 'a removed request body',
    family: 'v1',
    change: (d) => delete payout(d).requestBody,
    line: /createPayout\): request body removed/,
  },
  {
    rule: 'request-media-type-removed',
    name: 'a request media type changed',
    family: 'v1',
    change: (d) => offerAs(payout(d).requestBody.content, 'application/x-www-form-urlencoded', true),
    line: /createPayout\): request body: media type application\/json no longer accepted \(now application\/x-www-form-urlencoded\)/,
  },
  {
    rule: 'request-media-type-added',
    name: 'a request media type added',
    family: 'v1',
    change: (d) => offerAs(payout(d).requestBody.content, 'application/x-www-form-urlencoded'),
    line: /createPayout\): request body: media type application\/x-www-form-urlencoded added/,
  },
  {
    rule: 'response-media-type-removed',
    name: 'a response media type changed',
    family: 'business',
    change: (d) => offerAs(banks(d).responses['200'].content, 'text/csv', true),
    line: /listBanks\): response 200: media type application\/json no longer sent \(now text\/csv\)/,
  },
  {
    rule: 'response-media-type-added',
    name: 'a response media type added',
    family: 'business',
    change: (d) => offerAs(banks(d).responses['200'].content, 'text/csv'),
    line: /listBanks\): response 200: media type text\/csv added/,
  },
  {
    rule: 'response-content-added',
    name: 'content given to a response that had none',
    family: 'business',
    before: (d) => (banks(d).responses['429'] = { description: 'Too many requests.' }),
    change: (d) => (banks(d).responses['429'].content = jsonBody),
    line: /listBanks\): response 429: media type application\/json added/,
  },
];
