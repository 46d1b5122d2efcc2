// The rules of a schema's `format`: a request's tightens when one is added or changed, a response's loosens when
// one is dropped or changed.
import { type CompatRule, checkMovements, type Movement, rule, type SchemaPair } from './rule.js';

function formatMovement({ old, new: next, field }: SchemaPair): Movement[] {
  if (old.format === next.format) return [];
  const what =
    old.format === undefined
      ? `format added: ${next.format}`
      : next.format === undefined
        ? `format dropped (was ${old.format})`
        : `format changed from ${old.format} to ${next.format}`;
  return [{ what: `${field}: ${what}`, tighter: next.format !== undefined, looser: old.format !== undefined }];
}

const requestFormatTightened = rule({
  id: 'request-format-tightened',
  description: 'A request value gained a `format`, or its format changed: values sent before may be refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'senders',
  on: 'schema',
  check: checkMovements(formatMovement, (m) => m.tighter),
});

const requestFormatLoosened = rule({
  id: 'request-format-loosened',
  description: 'A request value lost its `format`.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(formatMovement, (m) => !m.tighter),
});

const responseFormatLoosened = rule({
  id: 'response-format-loosened',
  description: 'A response value lost its `format`, or its format changed: readers parse values they did not expect.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'readers',
  on: 'schema',
  check: checkMovements(formatMovement, (m) => m.looser),
});

const responseFormatTightened = rule({
  id: 'response-format-tightened',
  description: 'A response value gained a `format`.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'schema',
  check: checkMovements(formatMovement, (m) => !m.looser),
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestFormatTightened,
  requestFormatLoosened,
  responseFormatLoosened,
  responseFormatTightened,
];
