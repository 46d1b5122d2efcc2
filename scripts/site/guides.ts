// The guides (docs/guides/*.md) and the README as the tests and the docs build read them: which files there are,
// each guide's title and one-line summary, and an inventory of a Markdown text (its headings, code blocks and
// the first cell of each table row) that the tests use to prove nothing of the old README was dropped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';
import { repoRoot } from '../openapi/apis.js';

export const guidesDir = join(repoRoot, 'docs', 'guides');
export const readmePath = join(repoRoot, 'README.md');

export interface Guide {
  /** File name without `.md`: also the page's name on the site (`guides/<slug>.html`). */
  slug: string;
  /** Path relative to the repository, as the README links it. */
  path: string;
  /** The `# ` heading. */
  title: string;
  /** The first paragraph under the title: what task the guide answers, in one sentence. */
  summary: string;
  text: string;
}

/** The guides, in the order the README's table of guides lists them (unlisted ones last, by name). */
export function readGuides(): Guide[] {
  const readme = readFileSync(readmePath, 'utf8');
  const at = (name: string) => {
    const i = readme.indexOf(`(docs/guides/${name})`);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return readdirSync(guidesDir)
    .filter((name) => name.endsWith('.md'))
    .sort((a, b) => at(a) - at(b) || a.localeCompare(b))
    .map((name) => {
      const text = readFileSync(join(guidesDir, name), 'utf8');
      const tokens = new Lexer().lex(text);
      const title = tokens.find((t): t is Tokens.Heading => t.type === 'heading' && t.depth === 1)?.text;
      const summary = tokens.find((t): t is Tokens.Paragraph => t.type === 'paragraph')?.text;
      if (!title || !summary) throw new Error(`docs/guides/${name} needs a "# " title and a first paragraph`);
      return {
        slug: name.replace(/\.md$/, ''),
        path: `docs/guides/${name}`,
        title,
        summary: summary.replace(/\s+/g, ' '),
        text,
      };
    });
}

/** The anchor GitHub gives a heading (lower case, punctuation dropped, spaces as hyphens), so links work on both. */
export const headingSlug = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

export interface CodeBlock {
  lang: string;
  code: string;
  /** The name of the `<!-- NAME:start -->` marker right before the block, if any. */
  marker?: string;
  /** The reason given by an `<!-- illustrative: REASON -->` comment right before the block, if any. */
  illustrative?: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface Inventory {
  /** Heading texts, whatever their level. */
  headings: string[];
  codeBlocks: CodeBlock[];
  /** The first cell of every table row (a command, an option, a path, a variable...). */
  tableKeys: string[];
  /** Every table row, header rows included, as the Markdown of its cells. */
  tableRows: string[][];
  /** The sentences of every paragraph and list item, white space squashed (code blocks and tables aside). */
  sentences: string[];
}

/** Text with its white space squashed and its link targets dropped (`[words](target)` as `[words]()`). */
export const comparable = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\]\([^)]*\)/g, ']()');

/** Headings, code blocks (with the comment marking each) and table keys of a Markdown text, in document order. */
export function inventory(text: string): Inventory {
  const result: Inventory = { headings: [], codeBlocks: [], tableKeys: [], tableRows: [], sentences: [] };
  const prose = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'paragraph' || t.type === 'text')
        result.sentences.push(...comparable((t as Tokens.Text).text).split(/(?<=[.:;])\s+(?=[A-Z*`(])/));
      else if (t.type === 'list') for (const item of (t as Tokens.List).items) prose(item.tokens);
    }
  };
  let line = 1;
  let previous: Token | undefined;
  for (const token of new Lexer().lex(text)) {
    if (token.type === 'heading') result.headings.push((token as Tokens.Heading).text);
    if (token.type === 'paragraph' || token.type === 'list') prose([token]);
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const row of table.rows) if (row[0]) result.tableKeys.push(row[0].text);
      for (const row of [table.header, ...table.rows]) result.tableRows.push(row.map((cell) => cell.text));
    }
    if (token.type === 'code') {
      const code = token as Tokens.Code;
      const comment = previous?.type === 'html' ? previous.raw.trim() : '';
      result.codeBlocks.push({
        lang: code.lang ?? '',
        code: code.text,
        line,
        ...(/^<!-- ([\w-]+):start -->$/.exec(comment) ? { marker: /^<!-- ([\w-]+):start -->$/.exec(comment)![1] } : {}),
        ...(/^<!-- illustrative: (.+) -->$/.exec(comment)
          ? { illustrative: /^<!-- illustrative: (.+) -->$/.exec(comment)![1] }
          : {}),
      });
    }
    line += token.raw.split('\n').length - 1;
    if (token.type !== 'space') previous = token;
  }
  return result;
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->` in the README or a guide: the one place that holds it. */
export function markedBlock(name: string, lang = '\\w+'): { file: string; code: string } {
  const places = [
    { file: 'README.md', text: readFileSync(readmePath, 'utf8') },
    ...readGuides().map((g) => ({ file: g.path, text: g.text })),
  ].flatMap(({ file, text }) => {
    const m = new RegExp(`<!-- ${name}:start -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(
      text,
    );
    return m ? [{ file, code: m[1]! }] : [];
  });
  if (places.length !== 1)
    throw new Error(
      `${places.length === 0 ? 'No' : 'More than one'} file of README.md and docs/guides/ has a ${name} block`,
    );
  return places[0]!;
}
