// Test support: the exports of ramp-api wrapped for the trace of ./usage-trace.ts. A client's calls (by
// operationId, by path, or `request`) give back their `data` and `error` traced at the call's operation and
// status; `orThrow` and `unwrap` hand the real ones the untraced answer and give back the traced data, or throw
// the ApiError with its body traced; a webhook receiver's handlers get their delivery's payload traced.
import { HTTP_METHODS } from '../client/lookup/index.js';
import { isOperation, operationAt, payloadPlace, placeOf, responsePlace, traced, untraced } from './usage-trace.js';

type Result = { data?: unknown; error?: unknown; response: Response };
type Call = (...args: unknown[]) => Promise<Result>;
type AnyFunction = (...args: any[]) => any;

const WRAPPED = Symbol('usage-trace');
const isWrapped = (f: unknown) => typeof f === 'function' && WRAPPED in f;
const mark = <F extends AnyFunction>(f: F): F => Object.assign(f, { [WRAPPED]: true });

/** The result with its data and error traced as the answer of `operationId`. */
function tracedResult(family: string, operationId: string | undefined, result: Result): Result {
  const place = operationId && responsePlace(family, operationId, result.response.status);
  if (!place) return result;
  const out: Result = { ...result };
  if ('data' in result) out.data = traced(result.data, place);
  if ('error' in result) out.error = traced(result.error, place);
  return out;
}

/** A client of `family` whose calls give back traced answers. */
export function traceClient<C extends object>(family: string, client: C): C {
  const calls = client as unknown as Record<string, Call>;
  const wrapped: Record<string, unknown> = { ...(client as Record<string, unknown>) };
  for (const [name, call] of Object.entries(calls)) {
    if (typeof call !== 'function') continue;
    const method = HTTP_METHODS.find((m) => m.toUpperCase() === name);
    if (method)
      wrapped[name] = async (path: string, ...rest: unknown[]) =>
        tracedResult(family, operationAt(family, method, path), await call(path, ...rest));
    else if (name === 'request')
      wrapped[name] = async (m: string, path: string, ...rest: unknown[]) =>
        tracedResult(family, operationAt(family, m, path), await call(m, path, ...rest));
    else if (isOperation(family, name))
      wrapped[name] = async (...args: unknown[]) => tracedResult(family, name, await call(...args));
  }
  return wrapped as C;
}

/** A client factory (createV1Client, createBusinessClient) whose clients are traced. */
export function traceFactory<F extends AnyFunction>(family: string, factory: F): F {
  if (isWrapped(factory)) return factory;
  return mark(((...args: Parameters<F>) => traceClient(family, factory(...args))) as F);
}

/** `unwrap` that throws the ApiError with its body traced, or gives back the traced data. */
export function traceUnwrap<F extends AnyFunction>(unwrap: F): F {
  if (isWrapped(unwrap)) return unwrap;
  return mark(((result: Result) => {
    const plain = { ...result, data: untraced(result.data), error: untraced(result.error) };
    try {
      unwrap(plain);
    } catch (e) {
      const place = placeOf(result.error);
      if (place && e && typeof e === 'object' && 'body' in e) (e as { body: unknown }).body = traced(e.body, place);
      throw e;
    }
    return result.data;
  }) as F);
}

/** `orThrow` over the traced `unwrap`. */
export function traceOrThrow<F extends AnyFunction>(unwrap: AnyFunction, orThrow: F): F {
  if (isWrapped(orThrow)) return orThrow;
  const tracedUnwrap = traceUnwrap(unwrap);
  return mark((async (pending: Promise<Result>) => tracedUnwrap(await pending)) as F);
}

type Handler = (delivery: { event: string; payload: unknown }) => unknown;

/** createWebhookReceiver whose handlers get their payload traced as the v1 family's event. */
export function traceReceiver<F extends AnyFunction>(create: F): F {
  if (isWrapped(create)) return create;
  return mark(((options: { handlers: Record<string, Handler> }) => {
    const handlers = Object.fromEntries(
      Object.entries(options.handlers).map(([event, handler]) => [
        event,
        (delivery: { event: string; payload: unknown }) => {
          const place = payloadPlace('v1', event);
          return handler(place ? { ...delivery, payload: traced(delivery.payload, place) } : delivery);
        },
      ]),
    );
    return create({ ...options, handlers });
  }) as F);
}

/** The exports of a ramp-api module with its client factories, orThrow, unwrap and receiver traced. */
export function traceModule<M extends Record<string, unknown>>(exports: M): M {
  const out: Record<string, unknown> = { ...exports };
  const fn = (name: string) => exports[name] as AnyFunction;
  if (exports.createV1Client) out.createV1Client = traceFactory('v1', fn('createV1Client'));
  if (exports.createBusinessClient) out.createBusinessClient = traceFactory('business', fn('createBusinessClient'));
  if (exports.unwrap) out.unwrap = traceUnwrap(fn('unwrap'));
  if (exports.orThrow && exports.unwrap) out.orThrow = traceOrThrow(fn('unwrap'), fn('orThrow'));
  if (exports.createWebhookReceiver) out.createWebhookReceiver = traceReceiver(fn('createWebhookReceiver'));
  return out as M;
}
