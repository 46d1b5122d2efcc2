// The token exchange a client makes on the consumer's behalf: a client created with `auth: { credentials }`
// calls its family's token operation with the credentials as the JSON body (core/token-operations.ts, where the
// clients take it from). It is recorded as a call of that operation at the client's creation, with the
// credentials' fields. Where the options or the auth cannot be followed, the call is recorded with the reason.
import type { ts as TS } from 'ts-morph';
import { TokenOperation } from '../core/token-operations.js';
import { type Context, newCall, placeOfDeclaration } from './context.js';
import { followValue, inProject } from './follow-value.js';
import { recordSent, requestSchemaOf } from './visit-body.js';

/** The token operation of each family whose client takes credentials, as the clients define it. */
const TOKEN_OPERATIONS: Record<string, string> = { ...TokenOperation };

/** The family of the ramp-api client a call returns, if it is a call of a function outside the project. */
function clientFamily(ctx: Context, call: TS.CallExpression): string | undefined {
  const { ts, checker } = ctx;
  // `createV1Client(...)`, or through a namespace import: `ramp.createV1Client(...)`.
  const name = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
  if (!call.arguments.length || !ts.isIdentifier(name)) return undefined;
  const symbol = checker.getSymbolAtLocation(name);
  const callee = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = callee?.valueDeclaration ?? callee?.declarations?.[0];
  if (!declaration || inProject(ctx, declaration)) return undefined;
  const type = checker.getTypeAtLocation(call);
  for (const [family, operationId] of Object.entries(TOKEN_OPERATIONS)) {
    const method = type.getProperty(operationId)?.declarations?.[0];
    const place = method && placeOfDeclaration(ctx, method);
    if (place?.kind === 'operation' && place.family === family && place.operationId === operationId) return family;
  }
  return undefined;
}

/** Records the token call of a client created with credentials (or with options it cannot follow). */
export function visitClientCreation(ctx: Context, call: TS.CallExpression): void {
  const family = clientFamily(ctx, call);
  if (!family) return;
  const found = newCall(ctx, family, TOKEN_OPERATIONS[family]!, call);
  let calls = false;
  const notFollowed = (what: string) => (reason: string) => {
    calls = true;
    found.dynamic.push({ reason: `${what} built at run time (${reason})` });
  };
  const ignore = () => {};
  followValue(ctx, call.arguments[0]!, {
    property(name, options) {
      if (name !== 'auth' || !options) return;
      followValue(ctx, options, {
        property(key, credentials) {
          if (key !== 'credentials' || !credentials) return;
          calls = true;
          recordSent(ctx, credentials, requestSchemaOf(ctx, family, found.operationId), found, {
            noun: 'the credentials',
            verb: 'are',
          });
        },
        element: ignore,
        unknown: notFollowed("the client's auth is"),
      });
    },
    element: ignore,
    unknown: notFollowed("the client's options are"),
  });
  if (calls) ctx.calls.push(found);
}
