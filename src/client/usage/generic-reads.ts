// Reads on a value whose type is a type parameter (`function newestFirst<T extends { registerDate: string }>`):
// the field read is declared by the constraint, written in the project, not by the generated types. Each call of
// the function says what the parameter stands for there, and the field is read on that type. A function also
// handed on as a value, or one the walk never sees called, is called by code that cannot be followed: then every
// field of that name in the descriptions the project uses counts as read.
import type { ts as TS } from 'ts-morph';
import { isJsonObject, type JsonObject } from '../lookup/index.js';
import type { Context, GenericReadFound } from './context.js';
import { isPassedAsValue } from './flow-index.js';
import type { Place } from './generated-place.js';
import { childPointer, nodeAt } from './pointers.js';
import { fieldPlaces } from './visit-reads.js';

/** How many generic functions deep a read is followed (a generic helper calling another). */
const MAX_HOPS = 8;

/** The function that declares a type parameter, and the parameter's position in its list. */
function declaringFunction(ctx: Context, parameter: TS.TypeParameter) {
  const declaration = parameter.getSymbol()?.declarations?.[0];
  const owner = declaration?.parent;
  if (!declaration || !owner || !ctx.ts.isFunctionLike(owner) || !owner.typeParameters) return undefined;
  const index = owner.typeParameters.indexOf(declaration as TS.TypeParameterDeclaration);
  return index < 0 ? undefined : { owner, index };
}

/** The types a type parameter stands for at each call of its function; undefined if not every call is seen. */
function instantiations(ctx: Context, parameter: TS.TypeParameter): TS.Type[] | undefined {
  const found = declaringFunction(ctx, parameter);
  if (!found || isPassedAsValue(ctx, found.owner)) return undefined;
  const calls = ctx.flow.callsOf.get(found.owner);
  if (!calls?.length) return undefined;
  return calls.flatMap((call) => {
    const signature = ctx.checker.getResolvedSignature(call);
    const type = signature && ctx.checker.getTypeArgumentsForResolvedSignature(signature)?.[found.index];
    return type ? [type] : [];
  });
}

/** Every declared field named `name` in the schemas of the families the project uses. */
function fieldsNamed(ctx: Context, name: string): Place[] {
  const places: Place[] = [];
  for (const [family, bundle] of ctx.families) {
    const schemas = (nodeAt(bundle.doc, '/components/schemas') ?? {}) as JsonObject;
    const visit = (node: unknown, pointer: string, depth: number): void => {
      if (!isJsonObject(node) || depth > 30) return;
      for (const [key, child] of Object.entries(node)) {
        const at = childPointer(pointer, key);
        if (key === 'properties' && isJsonObject(child) && name in child)
          places.push({ kind: 'schema', family, pointer: childPointer(at, name) });
        visit(child, at, depth + 1);
      }
    };
    visit(schemas, '/components/schemas', 0);
  }
  return places;
}

function pushReads(ctx: Context, read: GenericReadFound, places: (Place | undefined)[], from: TS.Node): void {
  for (const place of places)
    if (place?.kind === 'schema') ctx.reads.push({ ...place, site: read.site, whole: false, node: read.node, from });
}

/** Turns each read on a type parameter into reads of the fields its instantiations declare. */
export function resolveGenericReads(ctx: Context): void {
  let pending = ctx.genericReads;
  for (let hop = 0; pending.length && hop < MAX_HOPS; hop++) {
    const next: GenericReadFound[] = [];
    for (const read of pending) {
      const types = instantiations(ctx, read.parameter);
      if (!types) {
        pushReads(ctx, read, fieldsNamed(ctx, read.name), read.from);
        continue;
      }
      for (const type of types) {
        if (type.flags & ctx.ts.TypeFlags.TypeParameter) next.push({ ...read, parameter: type as TS.TypeParameter });
        else pushReads(ctx, read, fieldPlaces(ctx, type, read.name), read.from);
      }
    }
    pending = next;
  }
  for (const read of pending) pushReads(ctx, read, fieldsNamed(ctx, read.name), read.from);
}
