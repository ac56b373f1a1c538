// Builds the server's JavaScript ahead of time (docs/decisions.md, "A built release"): three
// programs, each bundled with esbuild from the TypeScript sources into dist/server/. The command
// is split into chunks at its dynamic imports, so that a command loads only what it reaches; a
// render thread and the sheet reader are one file each. They are built apart: esbuild puts a file
// that several programs reach into one chunk for all of them, so built together the command would
// load the whole engine a thread renders with. Packages stay in node_modules. Source maps let a
// stack trace name the .ts line.
//
// A build may run while processes of the last one are running (`npx scriptorium` in a checkout
// runs `prepare` the first time): a file is replaced only when its bytes change, each by a rename,
// and files no longer built are removed last, so that a running process never reads a half-written
// or missing chunk of the build it started from.
//   node scripts/build.mjs [--watch]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/server`;

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.10',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions[]} */
const programs = [
  // The `scriptorium` command: the server, the admin and integrator commands, the console.
  { entryPoints: { scriptorium: 'src/cli/main.ts' }, splitting: true, chunkNames: 'chunks/[name]-[hash]' },
  // A render thread (piscina loads it) and the process that reads sample sheets.
  { entryPoints: { 'render-thread': 'workers/pool-task.ts' } },
  { entryPoints: { 'hand-process': 'workers/hand-process.ts' } },
].map((program) => ({ ...common, ...program }));

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name],
  );
}

if (process.argv.includes('--watch')) {
  for (const program of programs) await (await esbuild.context(program)).watch();
  process.stdout.write('build: watching the sources\n');
} else {
  const results = await Promise.all(programs.map((program) => esbuild.build({ ...program, write: false })));
  const built = new Set();
  let changed = 0;
  for (const file of results.flatMap((r) => r.outputFiles)) {
    const name = relative(outdir, file.path);
    built.add(name);
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(`${file.path}.${process.pid}.tmp`, file.contents);
    renameSync(`${file.path}.${process.pid}.tmp`, file.path);
    changed++;
  }
  const stale = filesUnder(outdir).filter((f) => !built.has(f));
  for (const f of stale) rmSync(join(outdir, f));
  const scripts = [...built].filter((f) => f.endsWith('.js')).length;
  process.stdout.write(
    `build: ${scripts} files in dist/server (${changed} written, ${stale.length} removed)\n`,
  );
}
