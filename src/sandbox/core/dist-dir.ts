// Where what the build makes for the sandbox lies: its rendered reference, its pages, its compiled validators
// and its PGlite snapshot.
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's `dist/` once compiled (this module is one folder below the package's root there), and, run from
 * the sources (`src/sandbox/`), the folder the build compiles the sandbox into (`src/sandbox/dist/`).
 */
export function sandboxDistDir(): string {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  return root.endsWith(`${sep}dist`) ? root : join(root, 'dist');
}
