// Maps a declaration in the client's generated types (src/client/generated/<family>.ts, shipped as
// dist/lib/generated/<family>.d.ts) back to where the description declares it: a schema pointer in the
// family's bundle, a parameter of an operation, or an operation of the family's operation table.
import type { ts as TS } from 'ts-morph';
import type { FamilyBundle } from './bundles.js';
import { childPointer, fieldAt, itemsAt, type Located, nodeAt } from './pointers.js';

export type Place =
  | { kind: 'schema'; family: string; pointer: string }
  | { kind: 'parameter'; family: string; operationId: string; parameter: string }
  | { kind: 'operation'; family: string; operationId: string };

/** A step down from a generated type's top: a property, an array's elements, or an index signature. */
type Step = { prop: string } | { items: true } | { index: true };

const GENERATED = /[/\\]generated[/\\]([a-z0-9]+)(-meta)?\.(d\.)?ts$/;

/** The family and kind of a generated file, or undefined for any other file. */
function generatedFile(fileName: string): { family: string; meta: boolean } | undefined {
  const match = GENERATED.exec(fileName);
  return match ? { family: match[1]!, meta: Boolean(match[2]) } : undefined;
}

/** The name of a property-like declaration (`id`, `"application/json"`, `201`). */
function nameOf(ts: typeof TS, node: TS.Node): string | undefined {
  const name = (node as TS.PropertySignature).name;
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))) return name.text;
  return undefined;
}

/** The steps from the top declaration (`components`, `operations`, `v1Operations`, ...) down to `node`. */
function stepsTo(ts: typeof TS, node: TS.Node): { top: string; steps: Step[] } | undefined {
  const steps: Step[] = [];
  for (let at: TS.Node | undefined = node, below: TS.Node | undefined; at; below = at, at = at.parent) {
    if (ts.isInterfaceDeclaration(at) || ts.isTypeAliasDeclaration(at) || ts.isVariableDeclaration(at)) {
      return ts.isIdentifier(at.name) ? { top: at.name.text, steps: steps.reverse() } : undefined;
    }
    if (ts.isPropertySignature(at) || ts.isPropertyAssignment(at)) {
      const name = nameOf(ts, at);
      if (name === undefined) return undefined;
      steps.push({ prop: name });
    } else if (ts.isIndexSignatureDeclaration(at)) steps.push({ index: true });
    else if (ts.isArrayTypeNode(at) && below === at.elementType) steps.push({ items: true });
  }
  return undefined;
}

const propsOf = (steps: Step[]) => steps.map((s) => ('prop' in s ? s.prop : undefined));

/** The pointer of the schema at the start of `steps` under an operation (`<opPtr>`), and the steps left. */
function underOperation(opPointer: string, steps: Step[]): { pointer: string; rest: Step[] } | undefined {
  const [part, a, b, c] = propsOf(steps);
  if (part === 'responses' && a && b === 'content' && c)
    return { pointer: childPointer(opPointer, 'responses', a, 'content', c, 'schema'), rest: steps.slice(4) };
  if (part === 'requestBody' && a === 'content' && b)
    return { pointer: childPointer(opPointer, 'requestBody', 'content', b, 'schema'), rest: steps.slice(3) };
  return undefined;
}

/** The schema pointer a generated declaration stands for, its steps walked through the bundle. */
function walk(bundle: FamilyBundle, start: string, rest: Step[], accessed?: string): string {
  let at: Located = { node: nodeAt(bundle.doc, start) as Located['node'], pointer: start };
  for (const step of rest) {
    if ('prop' in step) at = fieldAt(bundle.doc, at.node, at.pointer, step.prop);
    else if ('items' in step) at = itemsAt(bundle.doc, at.node, at.pointer);
    else at = accessed === undefined ? at : fieldAt(bundle.doc, at.node, at.pointer, accessed);
  }
  return at.pointer;
}

/**
 * Where a declaration of the generated types stands in the description. `accessed` names the field read through
 * an index signature (an open object), which gets the pointer it would have if declared.
 */
export function placeOf(
  ts: typeof TS,
  node: TS.Node,
  bundleOf: (family: string, fileName: string) => FamilyBundle | undefined,
  accessed?: string,
): Place | undefined {
  const file = generatedFile(node.getSourceFile().fileName);
  const found = file && stepsTo(ts, node);
  const bundle = file && bundleOf(file.family, node.getSourceFile().fileName);
  if (!file || !found || !bundle) return undefined;
  const { family } = file;
  const { top, steps } = found;
  const props = propsOf(steps);
  if (file.meta)
    return props[0] && steps.length === 1 ? { kind: 'operation', family, operationId: props[0] } : undefined;
  let start: { pointer: string; rest: Step[] } | undefined;
  if (top === 'components' && props[0] === 'schemas' && props[1])
    start = { pointer: childPointer('', 'components', 'schemas', props[1]), rest: steps.slice(2) };
  else if (top === 'components' && (props[0] === 'responses' || props[0] === 'requestBodies') && props[1]) {
    const holder = childPointer('', 'components', props[0], props[1]);
    const [, , content, media] = props;
    if (content === 'content' && media)
      start = { pointer: childPointer(holder, 'content', media, 'schema'), rest: steps.slice(4) };
  } else if (top === 'operations' && props[0]) {
    const opPointer = bundle.pointers.get(props[0]);
    if (!opPointer) return undefined;
    if (props[1] === 'parameters' && props[2] && props[3])
      return { kind: 'parameter', family, operationId: props[0], parameter: `${props[2]} ${props[3]}` };
    start = underOperation(opPointer, steps.slice(1));
  } else if ((top === 'paths' || top === 'webhooks') && props[0] && props[1])
    start = underOperation(childPointer('', top, props[0], props[1]), steps.slice(2));
  if (!start) return undefined;
  return { kind: 'schema', family, pointer: walk(bundle, start.pointer, start.rest, accessed) };
}
