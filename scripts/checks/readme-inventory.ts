// Prints the inventory (headings, code blocks, table keys) of the README at a git revision, as JSON: how
// scripts/checks/fixtures/readme-before.json was made from the README before it was split into the guides.
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../openapi/apis.js';
import { inventory } from '../site/guides.js';

const revision = process.argv[2] ?? 'HEAD';
const text = execFileSync('git', ['show', `${revision}:README.md`], { cwd: repoRoot, encoding: 'utf8' });
const { headings, codeBlocks, tableKeys, tableRows, sentences } = inventory(text);
const blocks = codeBlocks.map(({ lang, code }) => ({ lang, code }));
console.log(JSON.stringify({ revision, headings, codeBlocks: blocks, tableKeys, tableRows, sentences }, null, 2));
