// The package's own folder, found from wherever this code runs: the sources (src/…, under a
// TypeScript loader) or the built release (dist/server/…). Files read beside the code are named
// from it, so the same line finds them in both.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json in ${start} or above it`);
  }
}

export const PACKAGE_ROOT = packageRoot();

/** A path inside the package, from its root: `packageFile('dist', 'dashboard')`. */
export function packageFile(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
