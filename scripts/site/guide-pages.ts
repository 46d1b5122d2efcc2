// Renders the guides (docs/guides/*.md) into pages of the documentation site with marked: each page with the
// site's navigation (every guide, the three references, the guide's own sections) and a search over every
// guide's sections, all from files of the site itself (no CDN, nothing loaded from outside the machine).
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Lexer, Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../src/sandbox/http/escape-html.js';
import { repoRoot } from '../openapi/apis.js';
import { type Guide, guidesDir, headingSlug } from './guides.js';

/** A reference page of the site, as the guides' navigation links it. */
export interface ReferenceLink {
  title: string;
  /** Relative to the site's root (`business.html`). */
  page: string;
}

/** A heading's words without Markdown (code spans, emphasis, links). */
const plain = (markdown: string) =>
  markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*+/g, '');

/** Where a link of a guide goes on the site: another guide's page, a reference, or nowhere (a repository file). */
function siteHref(href: string): string | null {
  if (/^(https?:|mailto:|#)/.test(href)) return href;
  const [path, anchor] = href.split('#') as [string, string | undefined];
  const target = relative(repoRoot, resolve(guidesDir, path));
  const hash = anchor ? `#${anchor}` : '';
  if (dirname(target) === join('docs', 'guides') && target.endsWith('.md'))
    return `${basename(target, '.md')}.html${hash}`;
  const family = /^openapi\/([\w-]+)\/openapi\.yaml$/.exec(target)?.[1];
  if (family) return `../${family}.html`;
  if (target === join('openapi', 'INFERRED.md')) return '../index.html#inferred';
  return null;
}

export interface GuideSite {
  /** File name (under site/guides/) and its contents. */
  files: Map<string, string>;
  /** Images the guides show: where they are in the repository, and their name under site/guides/img/. */
  images: Map<string, string>;
}

/** One section of a guide for the search: the guide, the section's heading and anchor, and its words. */
interface SearchEntry {
  guide: string;
  section: string;
  href: string;
  text: string;
}

/** The sections of a guide (its `## ` headings, with the text under each), as the search finds them. */
function sections(guide: Guide): SearchEntry[] {
  const entries: SearchEntry[] = [];
  let current: SearchEntry = { guide: guide.title, section: guide.title, href: `${guide.slug}.html`, text: '' };
  for (const token of new Lexer().lex(guide.text)) {
    if (token.type === 'heading' && (token as Tokens.Heading).depth === 2) {
      entries.push(current);
      const text = plain((token as Tokens.Heading).text);
      current = { guide: guide.title, section: text, href: `${guide.slug}.html#${headingSlug(text)}`, text: '' };
    } else if (token.type !== 'heading' || (token as Tokens.Heading).depth > 2) {
      current.text += ` ${plain(token.raw.replace(/<!--[\s\S]*?-->/g, ''))}`;
    }
  }
  entries.push(current);
  return entries.map((e) => ({ ...e, text: e.text.replace(/[|#>-]{2,}|\s+/g, ' ').trim() }));
}

/**
 * The search box: a form that lists, as links, the sections of every guide whose text holds all the words typed.
 * `base` is where the guides' pages are, relative to the page that shows the box.
 */
export function searchBox(base: string): string {
  return `<form role="search" class="search" data-base="${escapeHtml(base)}">
<label for="guide-search">Search the guides</label>
<input id="guide-search" type="search" autocomplete="off" placeholder="Words, a command, an operation">
<p class="search-status" role="status" aria-live="polite"></p>
<ul class="search-results"></ul>
</form>
<script src="${escapeHtml(base)}search-index.js"></script><script src="${escapeHtml(base)}search.js"></script>`;
}

/** The search itself, run in the browser: a plain script of the site, with no library. */
const SEARCH_SCRIPT = `(() => {
  const form = document.querySelector('form.search');
  if (!form) return;
  form.addEventListener('submit', (event) => event.preventDefault());
  const base = form.dataset.base || '';
  const input = form.querySelector('input');
  const status = form.querySelector('.search-status');
  const list = form.querySelector('.search-results');
  const index = (window.rampGuideIndex || []).map((e) => ({ ...e, words: (e.section + ' ' + e.text).toLowerCase() }));
  const show = () => {
    const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    list.replaceChildren();
    if (!words.length) { status.textContent = ''; return; }
    const found = index.filter((e) => words.every((w) => e.words.includes(w)));
    status.textContent = found.length ? found.length + ' sections found' : 'No section holds all of these words';
    for (const entry of found.slice(0, 25)) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = base + entry.href;
      link.textContent = entry.section === entry.guide ? entry.guide : entry.section + ' (' + entry.guide + ')';
      item.append(link);
      list.append(item);
    }
  };
  input.addEventListener('input', show);
})();
`;

export const GUIDE_CSS = `body{font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#12355b;color:#fff;padding:16px 32px}header a{color:#fff;text-decoration:none;font-weight:600;font-size:20px}
.layout{display:flex;gap:28px;max-width:1320px;margin:0 auto;padding:0 24px}
nav.site{flex:0 0 270px;font-size:14px;padding:16px 0;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow:auto}
nav.site h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#3d4756;margin:18px 0 6px}
nav.site ul{list-style:none;margin:0;padding:0}nav.site li{margin:3px 0}nav.site a{color:#0b4f94;text-decoration:none}
nav.site a[aria-current="page"]{font-weight:700;color:#1d2430}
main{flex:1 1 auto;min-width:0;background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:8px 32px 40px;margin:16px 0}
h1{font-size:30px}h2{font-size:22px;border-bottom:2px solid #e4e8ef;padding-bottom:4px;margin-top:34px}h3{font-size:18px}
a{color:#0b4f94}code{background:#eef2f7;padding:1px 4px;border-radius:3px;font-size:90%}
pre{background:#0f1b2d;color:#e6edf7;padding:12px 16px;border-radius:6px;overflow:auto;font-size:13.5px}pre code{background:none;color:inherit;padding:0}
.table{overflow-x:auto}table{border-collapse:collapse;font-size:14px;margin:8px 0}th,td{border:1px solid #dde2ea;padding:6px 8px;text-align:left;vertical-align:top}th{background:#eef2f7}
img{max-width:100%;border:1px solid #dde2ea}.note{color:#3d4756;font-size:14px;font-style:italic}
form.search label{display:block;font-weight:600;margin-bottom:4px}form.search input{width:100%;box-sizing:border-box;padding:6px 8px;font:inherit;border:1px solid #8792a2;border-radius:4px}
.search-results{padding-left:18px}.search-status{font-size:13px;color:#3d4756;margin:4px 0}
`;

/** The site's guide pages, their search index, script and stylesheet, and the images they show. */
export function renderGuideSite(guides: Guide[], references: ReferenceLink[]): GuideSite {
  const files = new Map<string, string>();
  const images = new Map<string, string>();
  for (const guide of guides) {
    const headings: { depth: number; text: string; id: string }[] = [];
    const used = new Map<string, number>();
    let tables = 0;
    const marked = new Marked({
      gfm: true,
      renderer: {
        heading({ tokens, depth, text }) {
          const words = plain(text);
          let id = headingSlug(words);
          const seen = used.get(id) ?? 0;
          used.set(id, seen + 1);
          if (seen) id = `${id}-${seen}`;
          headings.push({ depth, text: words, id });
          return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
        },
        link({ href, title, tokens }) {
          const inner = this.parser.parseInline(tokens);
          const target = siteHref(href);
          // A file of the repository is not on the site: its name stays, as text.
          if (target === null)
            return `<span class="file" title="${escapeHtml(href.replace(/^(\.\.\/)+/, ''))}">${inner}</span>`;
          return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
        },
        image({ href, text }) {
          const source = resolve(guidesDir, href);
          if (!existsSync(source)) throw new Error(`${guide.path} shows ${href}, which does not exist`);
          images.set(source, basename(source));
          return `<img src="img/${escapeHtml(basename(source))}" alt="${escapeHtml(text)}">`;
        },
        html({ text }) {
          const reason = /^<!-- illustrative: ([\s\S]+?) -->\s*$/.exec(text)?.[1];
          if (reason) return `<p class="note">Illustrative, not run by the tests: ${escapeHtml(reason)}.</p>\n`;
          // The other comments mark blocks for the tests; nothing of them is shown.
          return text.trim().startsWith('<!--') ? '' : text;
        },
        code({ text, lang }) {
          const label = lang ? ` aria-label="${escapeHtml(lang === 'ts' ? 'TypeScript' : lang)} example"` : '';
          return `<pre tabindex="0"${label}><code>${escapeHtml(text)}</code></pre>\n`;
        },
        table(token) {
          const cells = (row: Tokens.TableCell[], tag: 'th' | 'td') =>
            `<tr>${row.map((c) => `<${tag}>${this.parser.parseInline(c.tokens)}</${tag}>`).join('')}</tr>`;
          // A scrollable region a keyboard can reach, named apart from the page's other tables.
          const name = `Table ${++tables}: ${token.header.map((c) => c.text).join(', ')}`;
          return `<div class="table" tabindex="0" role="region" aria-label="${escapeHtml(name)}"><table><thead>${cells(token.header, 'th')}</thead><tbody>${token.rows.map((r) => cells(r, 'td')).join('')}</tbody></table></div>\n`;
        },
      },
    });
    const body = marked.parse(guide.text, { async: false });
    const guideLinks = guides
      .map(
        (g) =>
          `<li><a href="${g.slug}.html"${g.slug === guide.slug ? ' aria-current="page"' : ''}>${escapeHtml(g.title)}</a></li>`,
      )
      .join('');
    const referenceLinks = references
      .map((r) => `<li><a href="../${escapeHtml(r.page)}">${escapeHtml(r.title)}</a></li>`)
      .join('');
    const onThisPage = headings
      .filter((h) => h.depth === 2)
      .map((h) => `<li><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`)
      .join('');
    files.set(
      `${guide.slug}.html`,
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(guide.title)} - ramp-api guides</title><link rel="stylesheet" href="guides.css"></head>
<body>
<header><a href="../index.html">ramp-api documentation</a></header>
<div class="layout">
<nav class="site" aria-label="Guides and references">
${searchBox('')}
<h2 id="nav-guides">Guides</h2><ul aria-labelledby="nav-guides">${guideLinks}</ul>
<h2 id="nav-references">References</h2><ul aria-labelledby="nav-references">${referenceLinks}</ul>
<h2 id="nav-sections">On this page</h2><ul aria-labelledby="nav-sections">${onThisPage}</ul>
</nav>
<main>
${body}</main>
</div>
</body></html>
`,
    );
  }
  files.set('search-index.js', `window.rampGuideIndex = ${JSON.stringify(guides.flatMap(sections))};\n`);
  files.set('search.js', SEARCH_SCRIPT);
  files.set('guides.css', GUIDE_CSS);
  return { files, images };
}

/** Writes the guides' pages into `dir` (the site's guides/ folder). Returns the pages' names. */
export function writeGuideSite(dir: string, guides: Guide[], references: ReferenceLink[]): string[] {
  const { files, images } = renderGuideSite(guides, references);
  mkdirSync(join(dir, 'img'), { recursive: true });
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  for (const [source, name] of images) copyFileSync(source, join(dir, 'img', name));
  return [...files.keys()].filter((name) => name.endsWith('.html'));
}
