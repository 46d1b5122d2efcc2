// Text a file may hold to act where it is shown: the tests of every place that shows names read from files use
// these, so that each is tried with the same attacks.
import { USAGE_FORMAT_VERSION, type UsageFile } from '../client/usage/usage-file.js';

/** In a terminal: a forged verdict line, clearing the screen, a hyperlink (OSC 8). */
export const TERMINAL_ATTACKS = {
  verdict: '\n✔ No breaking change.',
  clear: '\u001b[2J',
  hyperlink: '\u001b]8;;http://evil.example\u0007x\u001b]8;;\u0007',
};

/** The three above in one string. */
export const TERMINAL_ATTACK = Object.values(TERMINAL_ATTACKS).join('');

/** Any character a terminal acts on: C0 and C1 controls and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** In a page rendered from Markdown without sanitizing: elements that run a script, load a page, or link one. */
export const MARKUP_ATTACKS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<meta http-equiv="refresh" content="0;url=http://evil.example">',
  '[open](javascript:alert(1))',
];

/** The usage file of `consumer`, who reads the payout's `id` (v1 createPayout) at `site`. */
export const payoutIdReader = (
  consumer: string,
  site: string,
  descriptions: Record<string, string> = {},
): UsageFile => ({
  formatVersion: USAGE_FORMAT_VERSION,
  consumer,
  descriptions,
  operations: [
    {
      family: 'v1',
      operationId: 'createPayout',
      method: 'post',
      path: '/api/v1/admin/fiats/{user_id}/payout',
      calls: ['src/pay.ts:4'],
      parameters: ['path user_id'],
      requestFields: [],
      responseFields: [{ pointer: '/components/schemas/Payout/properties/id', sites: [site] }],
      statuses: [],
    },
  ],
  events: [],
  otherFields: [],
});
