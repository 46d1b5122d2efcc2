// Which statements a store keeps prepared, and under what name: the handlers' data statements, sent again and
// again with new parameters, are parsed (and on PostgreSQL planned) once per session instead of on every call.
// Schema changes and scripts run once and stay unnamed.

/** How many statement texts are kept prepared at most; past that, a new text is parsed each time it runs. */
export const PREPARED_STATEMENTS = 500;

/** Statements worth keeping prepared: the handlers' data statements. */
export const reusable = (text: string) => /^\s*(select|insert|update|delete|with)\b/i.test(text);

/** A name per reusable statement text (`s0`, `s1`...), the same for the store's life; undefined for the others. */
export function statementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    const known = names.get(text);
    if (known || !reusable(text) || names.size >= PREPARED_STATEMENTS) return known;
    const name = `s${names.size}`;
    names.set(text, name);
    return name;
  };
}
