// What a compatibility rule is: an id a report line carries, what it means, the direction it applies in, its
// verdict, whom it breaks, and its check, a visitor of one kind of node that the comparison (../compare.ts) calls
// with the old and the new node. A check says what changed, in words; the comparison adds where it is.
import type { JsonObject, OpenApiDocument, OperationEntry } from '../../lookup/index.js';

/**
 * `request`: what a client sends (parameters, request bodies). `response`: what it receives (responses, events'
 * payloads). `request or response`: either. `operation`: an operation or an event as a whole.
 */
export type RuleDirection = 'request' | 'response' | 'request or response' | 'operation';

/** `breaking` fails the gate; `notice` is listed apart (the wire is unchanged, the behaviour is not); `ok` is listed. */
type Verdict = 'breaking' | 'notice' | 'ok';

/**
 * Whom a change breaks, which is how a usage file is matched with it: `callers`, every call of the operation (or
 * every handler of the event); `senders`, the calls that send the changed parameter or request field (or may, when
 * their body is built at run time); `readers`, the code that reads the changed response or payload field, or a
 * value above it; `nobody`, for a rule whose verdict is not breaking.
 */
export type Breaks = 'callers' | 'senders' | 'readers' | 'nobody';

/** The words of a change, and for a change to one field of an object, that field's name. */
export type Report = (what: string, field?: { name: string; absent?: boolean }) => void;

/** An operation of the old description and its counterpart in the new one: one of them absent when added or removed. */
export interface OperationPair {
  oldDoc: OpenApiDocument;
  newDoc: OpenApiDocument;
  old?: OperationEntry;
  new?: OperationEntry;
  /** Path parameters renamed between the two (old name to new name). */
  renamed: Map<string, string>;
}

/** A parameter (`query userId`) of the old and the new operation. */
interface ParameterPair {
  key: string;
  old?: JsonObject;
  new?: JsonObject;
}

/** The request bodies of the old and the new operation, resolved. */
interface BodyPair {
  old?: JsonObject;
  new?: JsonObject;
}

/** The `content` maps (media type to schema) of a request body, a response or an event's payload. */
interface ContentPair {
  old: JsonObject;
  new: JsonObject;
}

/** One response status of the old and the new operation, with the new operation's success statuses. */
interface ResponsePair {
  status: string;
  old?: unknown;
  new?: unknown;
  newSuccess: string[];
}

/** An event (`webhooks:` entry) of the old and the new description. */
interface EventPair {
  name: string;
  old?: JsonObject;
  new?: JsonObject;
}

/** Two schemas at the same place, `allOf` merged, with the field path the messages name (`(body)` at the root). */
export interface SchemaPair {
  old: JsonObject;
  new: JsonObject;
  field: string;
  /** The field path of a property of this schema. */
  child: (name: string) => string;
}

/** The `oneOf` or `anyOf` alternatives of two schemas at the same place. */
export interface AlternativesPair {
  keyword: 'oneOf' | 'anyOf';
  old: unknown[];
  new: unknown[];
  field: string;
}

/** Each kind of node a rule can visit, with what its check is given. */
export interface Visited {
  operation: OperationPair;
  parameter: ParameterPair;
  body: BodyPair;
  content: ContentPair;
  response: ResponsePair;
  event: EventPair;
  schema: SchemaPair;
  alternatives: AlternativesPair;
}

export type NodeKind = keyof Visited;

interface RuleOn<K extends NodeKind> {
  /** Stable, kebab-case: a report line carries it, and `npm run compat -- --explain ID` prints the rule. */
  id: string;
  description: string;
  direction: RuleDirection;
  verdict: Verdict;
  breaks: Breaks;
  on: K;
  check: (pair: Visited[K], report: Report) => void;
}

export type CompatRule = { [K in NodeKind]: RuleOn<K> }[NodeKind];

/** A rule, its check typed by the kind of node it visits. */
export const rule = <K extends NodeKind>(definition: RuleOn<K>): RuleOn<K> => definition;

export const show = (value: unknown) => JSON.stringify(value);
export const same = (a: unknown, b: unknown) => show(a) === show(b);

/** A change of what a keyword allows: `tighter` when fewer values pass, `looser` when more do (both for a change that is neither). */
export interface Movement {
  what: string;
  tighter: boolean;
  looser: boolean;
}

/**
 * The check of a rule over the movements of one keyword: a request's rules split them by `tighter` (breaking when
 * tighter), a response's by `looser` (breaking when looser).
 */
export const checkMovements =
  (movements: (pair: SchemaPair) => Movement[], keep: (movement: Movement) => boolean) =>
  (pair: SchemaPair, report: Report) => {
    for (const movement of movements(pair)) if (keep(movement)) report(movement.what);
  };
