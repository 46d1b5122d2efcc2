// The types of a client's calls, the package's own: what a call by path and method (`client.POST(path, init)`)
// or by operationId takes (its init: parameters, body, fetch options) and gives back (`data` or `error`, with the
// Response), computed from the generated types. The calls run through openapi-fetch (./client.ts), but no public
// type names it: a replacement of the call layer changes no consumer's code (../public-types.test.ts fails if a
// declaration file of the package imports openapi-fetch; ../client-types.check.ts holds the calls' typing). The generated types carry no readOnly/writeOnly
// markers, so an answer's type is the generated one itself.

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** A media type (`application/json`). */
type MediaType = `${string}/${string}`;

/** The statuses whose answer is `data`; every other documented one (4xx, 5xx, `default`) is `error`. */
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | '2XX';

/** The values of `Obj` at the keys that match `Keys`. */
type ValuesAt<Obj, Keys> = Obj[keyof Obj & Keys];
// biome-ignore lint/complexity/noBannedTypes: the empty object type is the test: a key it can lack is optional.
type KeysNotOptional<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
/** The keys of `T` a value must have. */
type RequiredKeysOf<T> = KeysNotOptional<T> extends undefined ? never : KeysNotOptional<T>;

/** The paths of `Paths` that have an operation for `Method`. */
type PathsWith<Paths, Method extends HttpMethod> = {
  [Path in keyof Paths]: Paths[Path] extends { [M in Method]: unknown } ? Path : never;
}[keyof Paths];

type Responses<Operation> = Operation extends { responses: unknown } ? Operation['responses'] : unknown;
/** The content of the answers at `Codes` in `Media` (all of it when none is in `Media`). */
type ContentAt<
  R extends Record<string | number, any>,
  Media extends MediaType,
  Codes extends keyof R,
> = Codes extends keyof R
  ? {
      [K in Codes]: R[K]['content'] extends Record<string, any>
        ? ValuesAt<R[K]['content'], Media> extends never
          ? R[K]['content']
          : ValuesAt<R[K]['content'], Media>
        : R[K]['content'];
    }[Codes]
  : never;
type SuccessContent<R, Media extends MediaType> =
  R extends Record<string | number, any> ? ContentAt<R, Media, SuccessStatus & keyof R> : never;
type ErrorContent<R, Media extends MediaType> =
  R extends Record<string | number, any> ? ContentAt<R, Media, Exclude<keyof R, SuccessStatus>> : never;

type BodyPart<Operation> = 'requestBody' extends keyof Operation ? Pick<Operation, 'requestBody'> : never;
type BodyOptional<Operation> = RequiredKeysOf<BodyPart<Operation>> extends never ? true : false;
type BodyOf<Operation> = 'requestBody' extends keyof Operation ? Operation['requestBody'] : never;
type ContentOf<T> = T extends { content: unknown } ? T['content'] : unknown;
type BodyMedia<Operation> =
  BodyOptional<Operation> extends true
    ? ContentOf<NonNullable<BodyOf<Operation>>> | undefined
    : ContentOf<BodyOf<Operation>>;
/** The request body an operation takes, in any media type it documents. */
type RequestBody<Operation> =
  ValuesAt<BodyMedia<Operation>, MediaType> extends never
    ? ValuesAt<NonNullable<BodyMedia<Operation>>, MediaType> | undefined
    : ValuesAt<BodyMedia<Operation>, MediaType>;

/** Headers for a call: a Headers, pairs, or a record whose `null` or `undefined` values are left out. */
type HeadersOptions =
  | Required<RequestInit>['headers']
  | Record<string, string | number | boolean | (string | number | boolean)[] | null | undefined>;
type QuerySerializer<Operation> = (
  query: Operation extends { parameters: any }
    ? NonNullable<Operation['parameters']['query']>
    : Record<string, unknown>,
) => string;
interface QuerySerializerOptions {
  array?: { style: 'form' | 'spaceDelimited' | 'pipeDelimited'; explode: boolean };
  object?: { style: 'form' | 'deepObject'; explode: boolean };
  allowReserved?: boolean;
}
type BodySerializer<Operation> = (body: RequestBody<Operation>) => any;
type PathSerializer = (pathname: string, pathParams: Record<string, unknown>) => string;

/** How an answer's body is read: as JSON (the default), or as the Response's text, blob, bytes or stream. */
type BodyAs<T = unknown> = {
  json: T;
  text: Awaited<ReturnType<Response['text']>>;
  blob: Awaited<ReturnType<Response['blob']>>;
  arrayBuffer: Awaited<ReturnType<Response['arrayBuffer']>>;
  stream: Response['body'];
};
type ParseAs = keyof BodyAs;
type ReadAs<T, Options> = Options extends { parseAs: ParseAs } ? BodyAs<T>[Options['parseAs']] : T;

type ParamsOption<Operation> = Operation extends { parameters: any }
  ? RequiredKeysOf<Operation['parameters']> extends never
    ? { params?: Operation['parameters'] }
    : { params: Operation['parameters'] }
  : { params?: { query?: Record<string, unknown> } };
type BodyOption<Operation> =
  RequestBody<Operation> extends never
    ? { body?: never }
    : BodyOptional<Operation> extends true
      ? { body?: RequestBody<Operation> }
      : { body: RequestBody<Operation> };

/** What a call takes besides its path: parameters, body, and how it is sent and read. */
export type CallOptions<Operation> = ParamsOption<Operation> &
  BodyOption<Operation> & {
    baseUrl?: string;
    querySerializer?: QuerySerializer<Operation> | QuerySerializerOptions;
    bodySerializer?: BodySerializer<Operation>;
    pathSerializer?: PathSerializer;
    parseAs?: ParseAs;
    fetch?: (input: Request) => Promise<Response>;
    headers?: HeadersOptions;
    middleware?: Middleware[];
  } & Omit<RequestInit, 'body' | 'headers'>;

/** A call's result: the answer's body as `data` (a success status) or `error` (any other), and the Response. */
export type CallResult<Operation, Options, Media extends MediaType> =
  | { data: ReadAs<SuccessContent<Responses<Operation>, Media>, Options>; error?: never; response: Response }
  | { data?: never; error: ErrorContent<Responses<Operation>, Media>; response: Response };

type MaybeOptionalInit<PathItem, Method extends keyof PathItem> =
  RequiredKeysOf<CallOptions<ValuesAt<PathItem, Method>>> extends never
    ? CallOptions<ValuesAt<PathItem, Method>> | undefined
    : CallOptions<ValuesAt<PathItem, Method>>;
/** The init argument: optional when nothing in it is required; any further per-call option besides. */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** A call by path for one method: `client.POST('/api/v1/users', init)`. */
type PathCall<Paths, Method extends HttpMethod, Media extends MediaType> = <
  Path extends PathsWith<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<CallResult<ValuesAt<Paths[Path], Method>, Init, Media>>;

/** A call by method and path: `client.request('post', '/api/v1/users', init)`. */
type RequestCall<Paths, Media extends MediaType> = <
  Method extends HttpMethod,
  Path extends PathsWith<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  method: Method,
  url: Path,
  ...init: InitParam<Init>
) => Promise<CallResult<ValuesAt<Paths[Path], Method>, Init, Media>>;

/** The calls of one path, by method in capitals: the type of an operation's own method (`client.createPayout`). */
export type CallsOfPath<PathItem extends Record<string | number, any>, Media extends MediaType> = {
  [Method in keyof PathItem as Uppercase<string & Method>]: <Init extends MaybeOptionalInit<PathItem, Method>>(
    ...init: InitParam<Init>
  ) => Promise<CallResult<PathItem[Method], Init, Media>>;
};

/** What a middleware sees of a call. */
export interface MiddlewareCallbackParams {
  request: Request;
  readonly schemaPath: string;
  readonly params: {
    query?: Record<string, unknown>;
    header?: Record<string, unknown>;
    path?: Record<string, unknown>;
    cookie?: Record<string, unknown>;
  };
  readonly id: string;
  readonly options: {
    baseUrl: string;
    parseAs: ParseAs;
    querySerializer: QuerySerializer<unknown>;
    bodySerializer: BodySerializer<unknown>;
    pathSerializer: PathSerializer;
    fetch: typeof globalThis.fetch;
  };
}
/** What a hook may return: nothing (`void`, a function with no return statement) or what replaces the call's. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing is typed void, as a callback is.
type Returned<T> = void | T | undefined | Promise<void | T | undefined>;
type OnRequest = (options: MiddlewareCallbackParams) => Returned<Request | Response>;
type OnResponse = (options: MiddlewareCallbackParams & { response: Response }) => Returned<Response>;
type OnError = (options: MiddlewareCallbackParams & { error: unknown }) => Returned<Response | Error>;
/** A middleware (`client.use`): at least one of its three hooks. */
export type Middleware =
  | { onRequest: OnRequest; onResponse?: OnResponse; onError?: OnError }
  | { onRequest?: OnRequest; onResponse: OnResponse; onError?: OnError }
  | { onRequest?: OnRequest; onResponse?: OnResponse; onError: OnError };

/** The calls by path of a client, and its middleware. */
export interface PathCalls<Paths extends {}, Media extends MediaType = MediaType> {
  request: RequestCall<Paths, Media>;
  GET: PathCall<Paths, 'get', Media>;
  PUT: PathCall<Paths, 'put', Media>;
  POST: PathCall<Paths, 'post', Media>;
  DELETE: PathCall<Paths, 'delete', Media>;
  OPTIONS: PathCall<Paths, 'options', Media>;
  HEAD: PathCall<Paths, 'head', Media>;
  PATCH: PathCall<Paths, 'patch', Media>;
  TRACE: PathCall<Paths, 'trace', Media>;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}
