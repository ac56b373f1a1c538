// Builds the server's JavaScript ahead of time (docs/decisions.md, "A built release"): three
// programs, each bundled with esbuild from the TypeScript sources into dist/server/, sharing their
// common code in chunks so that a command loads only what it reaches. Packages stay in
// node_modules. Source maps let a stack trace name the .ts line.
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
const options = {
  absWorkingDir: root,
  entryPoints: {
    // The `scriptorium` command: the server, the admin and integrator commands, the console.
    scriptorium: 'src/cli/main.ts',
    // A render thread (piscina loads it) and the process that reads sample sheets.
    'render-thread': 'workers/pool-task.ts',
    'hand-process': 'workers/hand-process.ts',
  },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.10',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name],
  );
}

if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  process.stdout.write('build: watching the sources\n');
} else {
  const result = await esbuild.build({ ...options, write: false });
  const built = new Set();
  let changed = 0;
  for (const file of result.outputFiles) {
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
  const programs = [...built].filter((f) => f.endsWith('.js')).length;
  process.stdout.write(
    `build: ${programs} files in dist/server (${changed} written, ${stale.length} removed)\n`,
  );
}
