// JSON read from a file someone gave: when it is not JSON, the error says where it stops, never what it holds
// (the parser's own message quotes the text, which may be any file a path or a link leads to).

/** Where a scan of the text found the first character that cannot be there. */
class Stop {
  constructor(readonly at: number) {}
}

const WHITESPACE = /[ \t\n\r]*/y;
const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings hold no raw control character
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/** A scan of JSON's grammar that finds where `text` stops being JSON (the parser does not always say). */
function stopOf(text: string): number | undefined {
  let i = 0;
  const match = (pattern: RegExp) => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  const expect = (char: string) => {
    match(WHITESPACE);
    if (text[i] !== char) throw new Stop(i);
    i++;
  };
  const list = (close: string, item: () => void) => {
    match(WHITESPACE);
    if (text[i] === close) {
      i++;
      return;
    }
    item();
    match(WHITESPACE);
    while (text[i] === ',') {
      i++;
      item();
      match(WHITESPACE);
    }
    expect(close);
  };
  const value = (): void => {
    match(WHITESPACE);
    const open = text[i];
    if (open === '{' || open === '[') i++;
    if (open === '{')
      list('}', () => {
        match(WHITESPACE);
        if (!match(STRING)) throw new Stop(i);
        expect(':');
        value();
      });
    else if (open === '[') list(']', value);
    else if (!match(STRING) && !match(LITERAL)) throw new Stop(i);
  };
  try {
    value();
    match(WHITESPACE);
    return i < text.length ? i : undefined;
  } catch (error) {
    // A nesting deeper than the stack: no position, rather than none of the error.
    if (error instanceof Stop) return error.at;
    return undefined;
  }
}

/** Where the JSON of `text` stops, as a line and a column, from the parser's message or a scan of its own. */
function whereItStops(text: string, message: string): string {
  const given = /at position (\d+)/.exec(message)?.[1];
  const at = given === undefined ? stopOf(text) : Number(given);
  if (at === undefined) return '';
  if (at >= text.length) return ' (it ends too early)';
  const before = text.slice(0, at).split('\n');
  return ` (at line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

/** `text` parsed as JSON, or the error `refuse` makes of `not JSON (at line 2, column 5)`. */
export function parseJson(text: string, refuse: (problem: string) => Error): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refuse(`not JSON${whereItStops(text, (error as Error).message)}`);
  }
}
