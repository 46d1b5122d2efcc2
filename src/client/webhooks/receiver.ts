// Receives the service's event notifications: checks the secret of the registered URL, method, content type,
// size and JSON, works out the event, recognises a delivery of an event already handled, acknowledges within a
// bounded time and hands the delivery to a typed handler. Nothing it logs or answers contains the payload, which
// carries personal data, or the secret. The source shows only `authType: NONE` for the service's outbound
// calls: deliveries carry no signature, so a secret only the sender knows (in the URL) is the defence that fits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { concatChunks } from '../core/bytes.js';
import type { webhooks } from '../generated/v1.js';
import { v1EventNames } from '../generated/v1-meta.js';

export type EventName = (typeof v1EventNames)[number];
export const eventNames: readonly EventName[] = v1EventNames;

/** The payload of an event, as the description types it (not shown by the source: an open object). */
export type EventPayload<E extends EventName> = webhooks[E]['post']['requestBody']['content']['application/json'];

export interface Delivery<E extends EventName = EventName> {
  event: E;
  payload: EventPayload<E>;
  /**
   * The same for every delivery of one event: the event name and a SHA-256 of the body, which the sender
   * sends again unchanged. (Not a payload's `id`: the source does not show the payload, and an `id` there may
   * name the resource, the same in every event about it.) Store it with what the handler does to recognise a
   * redelivery the receiver's memory no longer holds.
   */
  idempotencyKey: string;
}

export type WebhookHandlers = { [E in EventName]?: (delivery: Delivery<E>) => void | Promise<void> };

/** Where the event name comes from: the URL you registered, or a field of the payload. */
export type EventResolver = (request: {
  url: URL;
  payload: Record<string, unknown>;
}) => { name: string; from: 'url' | 'payload' } | undefined;

export interface WebhookReceiverOptions {
  handlers: WebhookHandlers;
  /** Largest body accepted, in bytes; larger ones get 413 without being read whole. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A sender slower than this to deliver the whole body gets 408. Default 10000 ms. */
  bodyTimeoutMs?: number;
  /** Answer 202 if the handler has not finished by then (it keeps running). Default 10000 ms, well inside the 30 s delivery timeout. */
  ackWithinMs?: number;
  /** How to tell which event arrived. Default: `defaultEventResolver`. */
  resolveEvent?: EventResolver;
  /** Told about handler failures; receives the event name, never the payload. */
  onError?: (error: unknown, context: { event: EventName }) => void;
  /**
   * A secret the registered URL carries as `?secret=` (`https://you.example/ramp/user.created?secret=...`):
   * a delivery without it, or with another value, gets 401 and never reaches a handler. Compared in constant
   * time. Make it long and random (32 characters or more), and register the URL over HTTPS.
   */
  secret?: string;
  /**
   * What a delivery of an event already handled gets: `'skip'` (the default) answers 200 `{ received: true,
   * duplicate: true }` without running the handler; `'deliver'` runs it again (it sees the same
   * `idempotencyKey`). A delivery whose handler failed is not remembered, so the sender's retry runs it.
   */
  duplicates?: 'skip' | 'deliver';
  /** How many handled events are remembered for `duplicates`, the oldest forgotten first. Default 10000. */
  rememberEvents?: number;
}

export interface WebhookAnswer {
  status: number;
  body: { received: true; duplicate?: true } | { error: string };
  /** Headers the answer carries besides its content type (`Allow` on a 405). */
  headers?: Record<string, string>;
}

/**
 * The source does not show the payload, so the event is read from the URL first: register one endpoint per
 * event with the event name as the last path segment (`https://you.example/ramp/operation.status_updated`)
 * or as `?event=`. Failing that, a top-level `event`, `type`, `triggerEvent` or `eventName` string field.
 */
export const defaultEventResolver: EventResolver = ({ url, payload }) => {
  const fromQuery = url.searchParams.get('event');
  if (fromQuery) return { name: fromQuery, from: 'url' };
  const segment = decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? '');
  if (/^[a-z]+(\.[a-z_]+)+$/.test(segment)) return { name: segment, from: 'url' };
  for (const key of ['event', 'type', 'triggerEvent', 'eventName']) {
    if (typeof payload[key] === 'string') return { name: payload[key], from: 'payload' };
  }
  return undefined;
};

const KNOWN = new Set<string>(v1EventNames);
const isEventName = (name: string): name is EventName => KNOWN.has(name);
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

class BodyTooLarge extends Error {}
class BodyTooSlow extends Error {}
/** The request target cannot be read as a URL, or its path has a broken percent escape. */
class MalformedUrl extends Error {}

/** The request's URL from its target, or MalformedUrl (`//`, `/%`, `/%E0%A4%A` come from any client). */
function requestUrl(target: string | undefined): URL {
  try {
    const url = new URL(target ?? '/', 'http://receiver.local');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    throw new MalformedUrl();
  }
}
const MALFORMED_URL: WebhookAnswer = { status: 400, body: { error: 'The request URL is malformed.' } };

/** Whether `given` equals `expected`, in time that depends on the length of `expected` only. */
function secretMatches(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!;
  return difference === 0;
}

/** The delivery's idempotency key: the event and a digest of the body. */
async function idempotencyKeyOf(event: string, raw: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', raw as Uint8Array<ArrayBuffer>));
  return `${event}:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Keys of events handled or being handled, the oldest forgotten past `limit` (a Map keeps insertion order). */
function createSeen(limit: number) {
  const keys = new Map<string, true>();
  return {
    has: (key: string) => keys.has(key),
    add(key: string) {
      keys.delete(key);
      keys.set(key, true);
      if (keys.size > limit) keys.delete(keys.keys().next().value as string);
    },
    forget: (key: string) => keys.delete(key),
  };
}

/** Reads chunks until done, failing as soon as the limit or the deadline is passed (the rest is never buffered). */
async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, timeoutMs: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTooSlow()), timeoutMs);
  });
  try {
    const iterator = chunks[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), deadline]);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        await iterator.return?.();
        throw new BodyTooLarge();
      }
      parts.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return concatChunks(parts, size);
}

export interface WebhookReceiver {
  /** Web standard: for fetch-style servers (Request in, Response out). */
  handle(request: Request): Promise<Response>;
  /** Node's http: `http.createServer(receiver.node)`. */
  node(req: IncomingMessage, res: ServerResponse): void;
  /** The decision alone, for other frameworks. */
  receive(input: {
    method: string;
    url: URL;
    contentType: string | null;
    contentLength: number | null;
    body: AsyncIterable<Uint8Array> | null;
  }): Promise<WebhookAnswer>;
}

/** A receiver's options with their defaults, its memory of handled events, and its error reporter. */
interface Settings {
  readonly handlers: WebhookHandlers;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly ackWithinMs: number;
  readonly resolveEvent: EventResolver;
  readonly secret: string | undefined;
  readonly skipDuplicates: boolean;
  readonly seen: ReturnType<typeof createSeen>;
  report(error: unknown, event: EventName): void;
}

type ReceiveInput = Parameters<WebhookReceiver['receive']>[0];

const fail = (status: number, error: string): WebhookAnswer => ({ status, body: { error } });
/** A body over the limit, whether its Content-Length says so or its bytes do. */
const tooLarge = (settings: Settings) => fail(413, `The body is larger than ${settings.maxBodyBytes} bytes.`);

/** What the request line and headers alone refuse, before the body is read; undefined when none. */
function refusedUpFront(settings: Settings, input: ReceiveInput): WebhookAnswer | undefined {
  const { method, url, contentType, contentLength } = input;
  if (method !== 'POST') return { ...fail(405, 'Event notifications are POST requests.'), headers: { allow: 'POST' } };
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return MALFORMED_URL;
  }
  if (settings.secret !== undefined && !secretMatches(url.searchParams.get('secret') ?? '', settings.secret))
    return fail(401, 'The delivery does not carry this receiver`s secret.');
  if (!contentType || !JSON_TYPE.test(contentType)) return fail(415, 'Content-Type must be application/json.');
  if (contentLength !== null && contentLength > settings.maxBodyBytes) return tooLarge(settings);
  return undefined;
}

/** The body's bytes and the JSON object they hold, or the answer that refuses them. */
async function readPayload(
  settings: Settings,
  body: ReceiveInput['body'],
): Promise<{ raw: Uint8Array; payload: Record<string, unknown> } | WebhookAnswer> {
  const { maxBodyBytes, bodyTimeoutMs } = settings;
  let raw: Uint8Array;
  try {
    raw = body ? await readLimited(body, maxBodyBytes, bodyTimeoutMs) : new Uint8Array();
  } catch (error) {
    if (error instanceof BodyTooLarge) return tooLarge(settings);
    if (error instanceof BodyTooSlow) return fail(408, `The body did not arrive within ${bodyTimeoutMs} ms.`);
    return fail(400, 'The body could not be read.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return fail(400, 'The body is not valid JSON.');
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return fail(422, 'The payload must be a JSON object.');
  return { raw, payload: payload as Record<string, unknown> };
}

/** The known event a delivery is, or the answer that says it cannot be told. */
function eventOf(settings: Settings, url: URL, payload: Record<string, unknown>): EventName | WebhookAnswer {
  let resolved: ReturnType<EventResolver>;
  try {
    resolved = settings.resolveEvent({ url, payload });
  } catch {
    resolved = undefined; // a resolver that fails cannot tell the event either: a 4xx, never a retried 5xx
  }
  if (!resolved) return fail(422, 'Cannot tell which event this is: put the event name in the endpoint URL.');
  if (isEventName(resolved.name)) return resolved.name;
  // A name from the URL is the operator's; one from the payload is sender data and is not echoed.
  return resolved.from === 'url'
    ? fail(404, `Unknown event "${resolved.name.slice(0, 64)}".`)
    : fail(422, 'The event named in the payload is not one of the known events.');
}

/**
 * Runs the handler: 200 when it finished within `ackWithinMs`, 202 when it is still running (its failure is
 * then reported), 500 when it failed. A failed delivery is forgotten, so the sender's retry runs it again.
 */
async function handled(settings: Settings, delivery: Delivery): Promise<WebhookAnswer> {
  const { event, idempotencyKey } = delivery;
  const handler = settings.handlers[event] as (delivery: Delivery) => void | Promise<void>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), settings.ackWithinMs);
  });
  const run = Promise.resolve()
    .then(() => handler(delivery))
    .then(() => 'done' as const);
  run.catch(() => settings.seen.forget(idempotencyKey));
  try {
    if ((await Promise.race([run, slow])) === 'done') return { status: 200, body: { received: true } };
    run.catch((error: unknown) => settings.report(error, event));
    return { status: 202, body: { received: true } };
  } catch (error) {
    settings.report(error, event);
    return fail(500, `The handler for "${event}" failed.`);
  } finally {
    clearTimeout(timer);
  }
}

/** The whole decision for one delivery. */
async function receive(settings: Settings, input: ReceiveInput): Promise<WebhookAnswer> {
  const refused = refusedUpFront(settings, input);
  if (refused) return refused;
  const read = await readPayload(settings, input.body);
  if ('status' in read) return read;
  const event = eventOf(settings, input.url, read.payload);
  if (typeof event !== 'string') return event;
  if (!settings.handlers[event]) return fail(404, `No handler for event "${event}".`);
  const idempotencyKey = await idempotencyKeyOf(event, read.raw);
  if (settings.skipDuplicates && settings.seen.has(idempotencyKey))
    return { status: 200, body: { received: true, duplicate: true } };
  settings.seen.add(idempotencyKey);
  return handled(settings, { event, payload: read.payload as EventPayload<typeof event>, idempotencyKey });
}

const toResponse = (answer: WebhookAnswer) =>
  new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json', ...answer.headers },
  });

/** `receive` for a fetch-style server: Request in, Response out. */
async function handleRequest(settings: Settings, request: Request): Promise<Response> {
  const length = request.headers.get('content-length');
  let url: URL;
  try {
    url = requestUrl(request.url);
  } catch {
    return toResponse(MALFORMED_URL);
  }
  const answer = await receive(settings, {
    method: request.method,
    url,
    contentType: request.headers.get('content-type'),
    contentLength: length === null ? null : Number(length),
    body: request.body as AsyncIterable<Uint8Array> | null,
  });
  return toResponse(answer);
}

/** `receive` for Node's http. Everything about the request is read inside the promise: nothing a client sends can throw out of here. */
function handleNode(settings: Settings, req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers['content-length'];
  Promise.resolve()
    .then(() =>
      receive(settings, {
        method: req.method ?? 'GET',
        url: requestUrl(req.url),
        contentType: req.headers['content-type'] ?? null,
        contentLength: length === undefined ? null : Number(length),
        body: req,
      }),
    )
    .catch((error: unknown) => {
      if (error instanceof MalformedUrl) return MALFORMED_URL;
      throw error;
    })
    .then(
      (answer) => {
        // Stop reading a body that was refused unread; close the connection instead of draining it.
        const unread = !req.readableEnded;
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          ...answer.headers,
          ...(unread ? { connection: 'close' } : {}),
        });
        res.end(JSON.stringify(answer.body));
        if (unread) req.resume();
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Internal error.' }));
      },
    );
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  if (options.secret !== undefined && options.secret.length < 16)
    throw new Error('The receiver`s secret must be 16 characters or more (32 random ones are better).');
  const settings: Settings = {
    handlers: options.handlers,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    ackWithinMs: options.ackWithinMs ?? 10_000,
    resolveEvent: options.resolveEvent ?? defaultEventResolver,
    secret: options.secret,
    skipDuplicates: (options.duplicates ?? 'skip') === 'skip',
    seen: createSeen(options.rememberEvents ?? 10_000),
    report(error, event) {
      try {
        options.onError?.(error, { event });
      } catch {
        // a failing error reporter must not take the receiver down
      }
    },
  };
  return {
    receive: (input) => receive(settings, input),
    handle: (request) => handleRequest(settings, request),
    node: (req, res) => handleNode(settings, req, res),
  };
}
