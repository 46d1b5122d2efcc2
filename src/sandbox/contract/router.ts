// The router: the one place where a request's method and path are matched to an operation and its path
// parameters. Every operation of dist/openapi/{business,v1,sandbox}.json gets a route, with the checks of its
// requests and answers against the description; no route list is kept by hand. It runs without Node: the
// sandbox's router checks with the validators the build compiled (./reference.ts's `precompiledValidator`), the
// documentation site's console with Ajv compiling in the browser.

import { type JsonObject, listOperations, type OperationEntry, resolveRef } from 'ramp-api/lookup';
import type { SchemaValidator } from './ajv-setup.js';
import type { OpenApiDocument } from './document.js';
import { requestSchema } from './lookup.js';

export interface Route {
  family: string;
  entry: OperationEntry;
  secured: boolean;
  /**
   * Who may call it when secured: the `x-sandbox-credential` of each security scheme its `security` lists
   * (`admin`, `business`, `v1`), else the route's own family.
   */
  credentials: string[];
  /** Status to answer a request that breaks the description: 422 where the operation documents it, else 400. */
  invalidStatus: number;
  /** The names of the query parameters the operation documents, in order. */
  queryNames: string[];
  /** Whether the operation takes a request body: a body sent to one that takes none is not read. */
  acceptsBody: boolean;
  /** Number of `/`-separated segments of the path template: a path with another count cannot match. */
  segments: number;
  match(path: string): Record<string, string> | null;
  /** Problems of the request against the description; empty when valid. */
  checkRequest(request: {
    path: Record<string, string>;
    query: Record<string, unknown>;
    headers: Record<string, string | undefined>;
    body: unknown;
    hasBody: boolean;
  }): string[];
  /** Problems of an answer against the response schema for its status; null when the status is not documented. */
  checkResponse(status: number, body: unknown): string[] | null;
}

function coerce(schema: JsonObject | undefined, raw: string): unknown {
  const types = ([] as unknown[]).concat(schema?.type ?? []);
  if ((types.includes('number') || types.includes('integer')) && raw.trim() !== '' && !Number.isNaN(Number(raw)))
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function compilePath(template: string): { regex: RegExp; keys: string[]; literals: number } {
  const keys: string[] = [];
  let literals = 0;
  const source = template
    .split('/')
    .map((segment) => {
      const m = /^\{([^}]+)\}$/.exec(segment);
      if (m) {
        keys.push(m[1]!);
        return '([^/]+)';
      }
      literals++;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${source}$`), keys, literals };
}

/** The schemas an operation's requests and answers are checked against. */
function operationSchemas(doc: OpenApiDocument, entry: OperationEntry) {
  const body = resolveRef(doc, entry.operation.requestBody) as JsonObject | undefined;
  const responses = Object.entries((entry.operation.responses ?? {}) as JsonObject).map(([key, ref]) => ({
    key,
    schema: (resolveRef(doc, ref) as JsonObject | undefined)?.content?.['application/json']?.schema as unknown,
  }));
  return {
    body,
    bodySchema: body ? requestSchema(doc, entry) : undefined,
    parameters: entry.parameters.map((p) => ({ p, schema: (p.schema ?? {}) as unknown })),
    responses,
  };
}

/** Every schema the routes of `doc` validate with: what the build compiles ahead (see reference.ts). */
export function routeSchemas(doc: OpenApiDocument): unknown[] {
  return listOperations(doc).flatMap((entry) => {
    const { bodySchema, parameters, responses } = operationSchemas(doc, entry);
    return [
      ...(bodySchema ? [bodySchema] : []),
      ...parameters.map(({ schema }) => schema),
      ...responses.flatMap(({ schema }) => (schema ? [schema] : [])),
    ];
  });
}

/** The validator of one family's schemas, made when a route first checks something. */
export type ValidatorFor = (family: string, doc: OpenApiDocument) => SchemaValidator;

function buildRoutes(
  bundles: readonly { family: string; doc: OpenApiDocument }[],
  validatorFor: ValidatorFor,
): Route[] {
  const routes: (Route & { literals: number })[] = [];
  for (const { family, doc } of bundles) {
    const schemes = (doc.components?.securitySchemes ?? {}) as JsonObject;
    // A family's validator is made when a request first needs it, and each schema compiled (or taken from the
    // build's precompiled module) then: compiling every operation's schemas at start delayed the first answer.
    let validator: SchemaValidator | undefined;
    const lazily = (schema: unknown): ((value: unknown) => string[]) => {
      let check: ((value: unknown) => string[]) | undefined;
      return (value) => {
        validator ??= validatorFor(family, doc);
        check ??= validator.compile(schema);
        return check(value);
      };
    };
    for (const entry of listOperations(doc)) {
      const { regex, keys, literals } = compilePath(entry.path);
      const { body, bodySchema, parameters: parameterSchemas, responses } = operationSchemas(doc, entry);
      const checkBody = bodySchema ? lazily(bodySchema) : undefined;
      const parameters = parameterSchemas.map(({ p, schema }) => ({ p, check: lazily(schema) }));
      const responseChecks = new Map<string, ((value: unknown) => string[]) | null>();
      for (const { key, schema } of responses) responseChecks.set(key, schema ? lazily(schema) : null);
      const security = (entry.operation.security ?? doc.security ?? []) as JsonObject[];
      const responseFor = (status: number) =>
        [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responseChecks.has(k));
      routes.push({
        family,
        entry,
        literals,
        segments: entry.path.split('/').length,
        secured: security.length > 0,
        credentials: [
          ...new Set(
            security
              .flatMap((requirement) => Object.keys(requirement))
              .map((name) => schemes[name]?.['x-sandbox-credential'] ?? family),
          ),
        ],
        invalidStatus: responseChecks.has('422') ? 422 : 400,
        queryNames: entry.parameters.filter((p) => p.in === 'query').map((p) => String(p.name)),
        acceptsBody: bodySchema !== undefined,
        match(path) {
          const m = regex.exec(path);
          if (!m) return null;
          try {
            return Object.fromEntries(keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)]));
          } catch {
            return null;
          }
        },
        checkRequest(request) {
          const problems: string[] = [];
          for (const { p, check } of parameters) {
            const where =
              p.in === 'header'
                ? request.headers
                : p.in === 'path'
                  ? request.path
                  : p.in === 'query'
                    ? request.query
                    : undefined;
            if (!where) continue;
            const raw = where[p.in === 'header' ? String(p.name).toLowerCase() : p.name];
            if (raw === undefined) {
              if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
              continue;
            }
            // PostgreSQL text cannot hold U+0000: a value with one could never be stored or compared (the sandbox's limit).
            if (typeof raw === 'string' && raw.includes('\u0000')) {
              problems.push(
                `${p.in} parameter ${p.name} contains a NUL character (U+0000), which the sandbox does not accept in any text`,
              );
              continue;
            }
            const value = typeof raw === 'string' ? coerce(p.schema, raw) : raw;
            if (p.in === 'query') request.query[p.name] = value;
            problems.push(...check(value).map((m) => `${p.in} parameter ${p.name}: ${m}`));
          }
          if (bodySchema) {
            if (!request.hasBody) {
              if (body?.required) problems.push('a JSON body is required');
            } else problems.push(...checkBody!(request.body).map((m) => `body ${m}`));
          }
          return problems;
        },
        checkResponse(status, value) {
          const key = responseFor(status);
          if (key === undefined) return null;
          const check = responseChecks.get(key);
          if (!check) return value === undefined ? [] : ['the description shows no body for this status'];
          return check(value);
        },
      });
    }
  }
  // Most literal segments first, so a fixed path wins over a template that would also match.
  return routes.sort((a, b) => b.literals - a.literals);
}

/** The path and query of a request (parsed by ../http/target.ts): what the router and the request check read. */
export interface Target {
  pathname: string;
  searchParams: URLSearchParams;
}

/** A route and the path parameters the path gave it. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** No route: no operation has the path, or none has it with the method. */
export interface RouteMiss {
  route?: undefined;
  missing: 'path' | 'method';
  /** For a missing method: the methods the path takes (upper case), for a 405's `Allow`. */
  allowed?: string[];
}

export interface Router {
  /** Every route, most literal segments first. */
  readonly routes: readonly Route[];
  /** The route `method` (lower case) and `pathname` name, with its path parameters, or what is missing. */
  match(method: string, pathname: string): RouteMatch | RouteMiss;
}

/** The router of `bundles`; `validatorFor` makes a family's validator when one of its routes first checks something. */
export function createRouter(
  bundles: readonly { family: string; doc: OpenApiDocument }[],
  validatorFor: ValidatorFor,
): Router {
  const routes = buildRoutes(bundles, validatorFor);
  return {
    routes,
    match(method, pathname) {
      const allowed: string[] = [];
      const segments = pathname.split('/').length;
      for (const route of routes) {
        if (route.segments !== segments) continue;
        const params = route.match(pathname);
        if (!params) continue;
        if (route.entry.method === method) return { route, params };
        allowed.push(route.entry.method.toUpperCase());
      }
      return allowed.length ? { missing: 'method', allowed } : { missing: 'path' };
    },
  };
}
