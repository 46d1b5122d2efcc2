// Statements on PGlite in one exchange each. PGlite's own `query` makes six calls into PostgreSQL for one
// statement (parse, describe the parameters, bind, describe the result, execute, sync), each with its own
// await, and parses the statement every time. Here the same wire messages go in one call, and a statement the
// handlers send again and again is parsed once, as a named prepared statement of PGlite's one session. The
// parameters are sent as text, as PGlite sends them, and PostgreSQL infers their types from the statement.
// Statement-level behaviour is PostgreSQL's own in both paths: the same rows, the same errors.
import type { PGlite } from '@electric-sql/pglite';

type PgliteModule = typeof import('@electric-sql/pglite');

/** How many statement texts are kept prepared at most; past that, a new text is parsed each time it runs. */
const PREPARED_STATEMENTS = 500;

export interface StatementRunner {
  /**
   * The rows of one statement with `$1`... parameters, or undefined when a parameter cannot be sent as text.
   * `before`: a statement without parameters (a transaction's `begin`) sent ahead of it in the same exchange.
   */
  run<Row>(text: string, params?: unknown[], before?: string): Promise<Row[]> | undefined;
  /**
   * Statements without parameters by the simple protocol (begin, commit, rollback, a migration file's script);
   * the first one's command tag.
   */
  simple(text: string): Promise<string | undefined>;
}

/** A parameter as PostgreSQL's text input takes it; undefined for a value only PGlite's serializers know. */
function asText(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return value instanceof Date ? value.toISOString() : undefined;
  }
}

/** Statements worth keeping prepared: the handlers' data statements (schema changes run once, unnamed). */
const reusable = (text: string) => /^\s*(select|insert|update|delete|with)\b/i.test(text);

export function createStatementRunner(pg: PGlite, { protocol, parse }: PgliteModule): StatementRunner {
  const { serialize } = protocol;
  const names = new Map<string, string>();
  const describe = serialize.describe({ type: 'P' });
  const execute = serialize.execute({});
  const sync = serialize.sync();
  const exchange = async (parts: Uint8Array[]) => {
    const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      message.set(part, at);
      at += part.length;
    }
    const { messages } = await pg.execProtocol(message, { syncToFs: false, throwOnError: false });
    return messages;
  };
  return {
    run<Row>(text: string, params: unknown[] = [], before?: string) {
      const values = params.map(asText);
      if (values.includes(undefined)) return undefined;
      const known = names.get(text);
      const name = known ?? (reusable(text) && names.size < PREPARED_STATEMENTS ? `s${names.size}` : '');
      const parts = [
        ...(before ? [serialize.query(before)] : []),
        ...(known ? [] : [serialize.parse({ name, text })]),
        serialize.bind({ statement: name, values: values as (string | null)[] }),
        describe,
        execute,
        sync,
      ];
      return exchange(parts).then((messages) => {
        // A statement PostgreSQL parsed is prepared from then on, even if binding or running it failed.
        if (name && !known && messages.some((m) => m.name === 'parseComplete')) names.set(text, name);
        const error = messages.find((m) => m.name === 'error');
        if (error) throw error;
        return parse.parseResults(messages, pg.parsers).at(-1)!.rows as Row[];
      });
    },
    async simple(text) {
      const messages = await exchange([serialize.query(text)]);
      const error = messages.find((m) => m.name === 'error');
      if (error) throw error;
      return (messages.find((m) => m.name === 'commandComplete') as { text?: string } | undefined)?.text;
    },
  };
}
