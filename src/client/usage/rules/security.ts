// The rules of an operation's security: the schemes a call needs, its own list or else the document's.
import type { JsonObject, OpenApiDocument } from '../../lookup/index.js';
import { type CompatRule, type OperationPair, rule, same } from './rule.js';

/** The security schemes an operation needs (its own list, else the document's); empty when public. */
const securityOf = (doc: OpenApiDocument, op: JsonObject): string[] =>
  ((op.security ?? (doc as JsonObject).security ?? []) as JsonObject[])
    .map((req) => Object.keys(req).sort().join('+') || '(none)')
    .sort();

const isPublic = (schemes: string[]) => schemes.length === 0 || schemes.includes('(none)');

/** The schemes an operation needs before and after. */
type SecurityChange = { before: string[]; after: string[] };

/** The schemes before and after, when they differ. */
function securityChange({ oldDoc, newDoc, old, new: next }: OperationPair): SecurityChange | undefined {
  if (!old || !next) return undefined;
  const before = securityOf(oldDoc, old.operation);
  const after = securityOf(newDoc, next.operation);
  return same(before, after) ? undefined : { before, after };
}

/** The check of a rule over a change of security: whether it was public before and is now, and its words. */
const onSecurityChange =
  (applies: (wasPublic: boolean, isNowPublic: boolean) => boolean, words: (change: SecurityChange) => string) =>
  (pair: OperationPair, report: (what: string) => void) => {
    const change = securityChange(pair);
    if (change && applies(isPublic(change.before), isPublic(change.after))) report(words(change));
  };

const securityAdded = rule({
  id: 'security-added',
  description: 'A public operation now requires a security scheme: calls without credentials are refused.',
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'operation',
  check: onSecurityChange(
    (wasPublic, isNowPublic) => wasPublic && !isNowPublic,
    ({ after }) => `security added: now requires ${after.join(' or ')}`,
  ),
});

const securityRemoved = rule({
  id: 'security-removed',
  description: 'An operation that required a security scheme is now public.',
  direction: 'operation',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'operation',
  check: onSecurityChange(
    (wasPublic, isNowPublic) => !wasPublic && isNowPublic,
    () => 'security removed: now public',
  ),
});

const securityChanged = rule({
  id: 'security-changed',
  description: 'An operation requires other security schemes than before: credentials of the old ones are refused.',
  direction: 'operation',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'operation',
  check: onSecurityChange(
    (wasPublic, isNowPublic) => wasPublic === isNowPublic,
    ({ before, after }) => `security changed from ${before.join(' or ')} to ${after.join(' or ')}`,
  ),
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [securityAdded, securityRemoved, securityChanged];
