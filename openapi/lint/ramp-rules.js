// House lint rules for the ramp-api descriptions, loaded by redocly.yaml.
// Each rule guards a convention from the README so that the linter, not a reviewer, remembers it.

/** Every property of every schema has a description (on the property or on the schema it refers to). */
function PropertyDescription() {
  return {
    Schema: {
      enter(schema, ctx) {
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (property && typeof property.description === 'string' && property.description.trim()) continue;
          const resolved = property?.$ref ? ctx.resolve(property).node : undefined;
          if (resolved && typeof resolved.description === 'string' && resolved.description.trim()) continue;
          ctx.report({
            message: `Property \`${name}\` has no description.`,
            location: ctx.location.child(['properties', name]),
          });
        }
      },
    },
  };
}

/**
 * A node marked `x-inferred` lists what was inferred (a non-empty array of strings)
 * and says why in a description containing a sentence that starts with "Inferred:".
 */
function InferredExplained() {
  const check = (node, ctx) => {
    if (!node || typeof node !== 'object' || !('x-inferred' in node)) return;
    const inferred = node['x-inferred'];
    if (
      !Array.isArray(inferred) ||
      inferred.length === 0 ||
      !inferred.every((s) => typeof s === 'string' && s.trim())
    ) {
      ctx.report({
        message: '`x-inferred` must be a non-empty list of what was inferred.',
        location: ctx.location.child(['x-inferred']),
      });
    }
    if (typeof node.description !== 'string' || !/(^|\s)Inferred:/.test(node.description)) {
      ctx.report({
        message:
          'A node marked `x-inferred` needs a description with a sentence starting "Inferred:" that says what was guessed and why.',
        location: ctx.location.child(['description']),
      });
    }
  };
  const visitor = {};
  for (const type of [
    'Server',
    'ServerVariable',
    'Operation',
    'Parameter',
    'RequestBody',
    'Response',
    'Schema',
    'Example',
    'SecurityScheme',
    'Info',
  ]) {
    visitor[type] = { enter: check };
  }
  return visitor;
}

/**
 * Every name in `required` is a declared property. Unlike the stock rule, a `then`/`else` branch may
 * require a property declared by the schema that holds the `if` (a conditional requirement).
 */
function RequiredPropertiesDefined() {
  const declared = (schema, ctx) => {
    const names = new Set(Object.keys(schema?.properties ?? {}));
    for (const part of schema?.allOf ?? []) {
      const resolved = part?.$ref ? ctx.resolve(part).node : part;
      for (const name of Object.keys(resolved?.properties ?? {})) names.add(name);
    }
    return names;
  };
  const check = (schema, ctx, names, where) => {
    (schema?.required ?? []).forEach((name, i) => {
      if (!names.has(name)) {
        ctx.report({
          message: `Required property \`${name}\` is not declared.`,
          location: ctx.location.child([...where, 'required', i]),
        });
      }
    });
  };
  return {
    Schema: {
      enter(schema, ctx) {
        if (!schema || typeof schema !== 'object' || !schema.properties) return;
        const names = declared(schema, ctx);
        check(schema, ctx, names, []);
        for (const branch of ['then', 'else']) if (schema[branch]) check(schema[branch], ctx, names, [branch]);
      },
    },
  };
}

const SECRET_PATTERNS = [
  ['a JWT', /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/],
  ['a bearer token', /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/i],
  ['a private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['a long opaque token', /(?<![A-Za-z0-9_-])[A-Za-z0-9_]{40,}(?![A-Za-z0-9_-])/],
];
const SECRET_KEYS =
  /^(password|passwd|secret|client_?secret|api_?key|access_?token|refresh_?token|private_?key|authorization)$/i;

/** Examples carry no token-like secrets: no JWTs, bearer tokens, keys, or values under secret-sounding names. */
function NoSecretsInExamples() {
  const scan = (value, ctx, location, key) => {
    if (typeof value === 'string') {
      if (key && SECRET_KEYS.test(key) && value) {
        ctx.report({ message: `Example sets \`${key}\`: examples must not carry credentials.`, location });
      }
      for (const [what, pattern] of SECRET_PATTERNS) {
        if (pattern.test(value))
          ctx.report({ message: `Example contains what looks like ${what}; use an obviously fake value.`, location });
      }
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) scan(item, ctx, location.child([i]), undefined);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) scan(v, ctx, location.child([k]), k);
    }
  };
  const field = (name) => ({
    enter(node, ctx) {
      if (node && typeof node === 'object' && name in node)
        scan(node[name], ctx, ctx.location.child([name]), undefined);
    },
  });
  return {
    Example: field('value'),
    MediaType: field('example'),
    Parameter: field('example'),
    Schema: field('examples'),
  };
}

/** Every operation carries at least one tag. */
function OperationHasTag() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (!Array.isArray(operation.tags) || operation.tags.length === 0) {
          ctx.report({ message: 'Operation has no tag.', location: ctx.location.key() });
        }
      },
    },
  };
}

/** Responses use explicit status codes: several tools refuse range codes (`4XX`) or generate code that does not compile. */
function NoStatusRanges() {
  return {
    Responses: {
      enter(responses, ctx) {
        for (const key of Object.keys(responses ?? {})) {
          if (/^[1-5]XX$/i.test(key)) {
            ctx.report({
              message: `Response \`${key}\` is a range: list explicit codes (marked \`x-inferred\` where the source is silent).`,
              location: ctx.location.child([key]).key(),
            });
          }
        }
      },
    },
  };
}

/**
 * No example name is used both for a request body and for a response: tools that pair a request example
 * with the response example of the same name (Specmatic) would expect that response for that request.
 */
function ExampleNamesDistinct() {
  let request = new Map();
  let response = new Map();
  const collect = (names) => ({
    MediaType: {
      enter(media, ctx) {
        const into = names();
        for (const name of Object.keys(media?.examples ?? {}))
          if (!into.has(name)) into.set(name, ctx.location.child(['examples', name]).key());
      },
    },
  });
  return {
    Root: {
      enter() {
        request = new Map();
        response = new Map();
      },
      leave(_root, ctx) {
        for (const [name, location] of request) {
          if (response.has(name))
            ctx.report({
              message: `Example name \`${name}\` is used for a request body and for a response; give each its own name.`,
              location,
            });
        }
      },
    },
    RequestBody: collect(() => request),
    Response: collect(() => response),
  };
}

const CONSTRAINT_KEYWORDS = [
  'format',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
];
const REFUSAL_STATUSES = ['400', '422'];

/**
 * An operation that takes a constrained input (a body, a required query or header parameter, or a parameter
 * whose schema has a type other than text or a constraint) documents the status it is refused with (400 or 422).
 */
function RefusalDocumented() {
  const constrained = (parameter, ctx) => {
    const p = parameter?.$ref ? ctx.resolve(parameter).node : parameter;
    if (!p) return false;
    if (p.required && p.in !== 'path') return true;
    const schema = p.schema?.$ref ? ctx.resolve(p.schema).node : p.schema;
    if (!schema) return false;
    if (schema.type && schema.type !== 'string') return true;
    return CONSTRAINT_KEYWORDS.some((k) => k in schema);
  };
  return {
    PathItem: {
      enter(item, ctx) {
        for (const method of ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']) {
          const operation = item[method];
          if (!operation || typeof operation !== 'object') continue;
          const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
          const reasons = [];
          if (operation.requestBody) reasons.push('a request body');
          const names = parameters
            .filter((p) => constrained(p, ctx))
            .map((p) => (p.$ref ? ctx.resolve(p).node : p).name);
          if (names.length) reasons.push(`constrained parameter(s) ${names.join(', ')}`);
          if (!reasons.length || REFUSAL_STATUSES.some((s) => s in (operation.responses ?? {}))) continue;
          ctx.report({
            message: `Operation takes ${reasons.join(' and ')} but documents no refusal status (${REFUSAL_STATUSES.join(' or ')}).`,
            location: ctx.location.child([method, 'responses']).key(),
          });
        }
      },
    },
  };
}

export default function rampRules() {
  return {
    id: 'ramp',
    rules: {
      oas3: {
        'property-description': PropertyDescription,
        'inferred-explained': InferredExplained,
        'operation-has-tag': OperationHasTag,
        'required-properties-defined': RequiredPropertiesDefined,
        'no-secrets-in-examples': NoSecretsInExamples,
        'no-status-ranges': NoStatusRanges,
        'example-names-distinct': ExampleNamesDistinct,
        'refusal-documented': RefusalDocumented,
      },
    },
  };
}
