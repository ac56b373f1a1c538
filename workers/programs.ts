// Where the code of a render thread and of the process that reads sample sheets is: the built
// release (dist/server, made by `npm run build`, which `npm ci` and the tests run), or, while
// developing with SCRIPTORIUM_FROM_SOURCE=1 (`npm run dev`), the TypeScript sources through the
// tsx shims beside this file.
import { existsSync } from 'node:fs';
import { envValue } from '../src/config/index.ts';
import { packageFile } from '../src/lib/package-files.ts';

export type Program = 'render-thread' | 'hand-process';

const SHIMS: Record<Program, string> = { 'render-thread': 'render.mjs', 'hand-process': 'hand-process.mjs' };

/** The file a thread or process of this kind starts from. */
export function programFile(program: Program): string {
  if (envValue('SCRIPTORIUM_FROM_SOURCE') === '1') return packageFile('workers', SHIMS[program]);
  const built = packageFile('dist', 'server', `${program}.js`);
  if (!existsSync(built)) throw new Error(`the built ${program} is missing (${built}): run npm run build`);
  return built;
}
