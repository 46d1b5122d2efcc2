// `npm run lint:openapi`: `redocly lint` over every API of redocly.yaml (or those named), its report as it is,
// without the Node 20 end-of-life box Redocly CLI 2.77 prints on every run (./lib/redocly.ts); its exit status.
import { spawn } from 'node:child_process';
import { repoRoot } from '../openapi/apis.js';
import { redoclyBin, redoclyEnv, withoutNodeNotice } from '../openapi/redocly.js';

const child = spawn(redoclyBin, ['lint', ...process.argv.slice(2)], {
  cwd: repoRoot,
  env: redoclyEnv,
  stdio: ['ignore', 'inherit', 'pipe'],
});
let stderr = '';
child.stderr.on('data', (chunk) => {
  stderr += String(chunk);
});
child.on('close', (code, signal) => {
  process.stderr.write(withoutNodeNotice(stderr));
  process.exitCode = code ?? (signal ? 1 : 0);
});
