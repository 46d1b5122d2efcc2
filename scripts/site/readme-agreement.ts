// What a sample shown in the docs must share with the README and the guides (docs/guides/*.md), where the
// examples and the variables now live: the environment variables it reads (and their defaults, where they give
// one), the loopback addresses it calls, and where it imports each name from.
import { readFileSync } from 'node:fs';
import { readGuides, readmePath } from './guides.js';

/** The README and every guide, one after another: the text the samples must agree with. */
export const readmeText = () => [readFileSync(readmePath, 'utf8'), ...readGuides().map((g) => g.text)].join('\n');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const defaultOf = (text: string, name: string) =>
  new RegExp(`process\\.env\\.${escapeRegExp(name)} \\?\\? ('[^']*')`).exec(text)?.[1];
const imports = (text: string) =>
  [...text.matchAll(/import \{([^}]*)\} from '([^']+)'/g)]
    .flatMap(([, names, from]) => names!.split(',').map((n) => `${n.trim()} from ${from}`))
    .filter((n) => !n.startsWith('type '));

/** How `sample` differs from the README and guides: one line per variable, address or import they do not use that way. */
export function unlikeReadme(sample: string, readme = readmeText()): string[] {
  const problems: string[] = [];
  for (const name of new Set([...sample.matchAll(/process\.env\.([A-Z0-9_]+)/g)].map((m) => m[1]!))) {
    if (!new RegExp(`\\b${name}\\b`).test(readme)) problems.push(`${name} is not a variable the README names`);
    const [ours, theirs] = [defaultOf(sample, name), defaultOf(readme, name)];
    if (ours && theirs && ours !== theirs) problems.push(`${name} defaults to ${ours}, in the README to ${theirs}`);
  }
  for (const address of new Set([...sample.matchAll(/127\.0\.0\.1:\d+/g)].map((m) => m[0]))) {
    if (!readme.includes(address)) problems.push(`${address} is not an address the README uses`);
  }
  const known = new Set(imports(readme));
  for (const entry of imports(sample)) if (!known.has(entry)) problems.push(`the README never imports ${entry}`);
  return problems;
}
