// A benchmark that times the engine in its own thread runs it as the service does: bundled by
// esbuild into one file, as scripts/build.mjs builds the render thread, not module by module
// through tsx. What differs is V8's: a module's imported constants and functions are live
// bindings, read through the module's scope on every use, where in one file they are locals the
// optimising compiler can fold (a caption in a new seed about 1.5 ms slower, the same code).
//
//   await asBuilt(import.meta.url); // first thing in the benchmark, then its work as before
//
// The first run bundles the benchmark into .bench/ (beside bench/, so that its paths relative to
// the checkout still hold) and runs that with the same arguments; the bundle's own run goes on.
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const BUILT = 'SCRIPTORIUM_BENCH_BUILT';

export async function asBuilt(url: string): Promise<void> {
  if (process.env[BUILT] === '1') return;
  const entry = fileURLToPath(url);
  const outfile = join(
    fileURLToPath(new URL('../.bench/', import.meta.url)),
    `${basename(entry, '.ts')}.mjs`,
  );
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.10',
    packages: 'external',
    // The package says it has no side effects, for the service's own build; a benchmark's bare
    // imports (the image allocator's settings) are kept.
    ignoreAnnotations: true,
    logLevel: 'error',
  });
  const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [BUILT]: '1' },
  });
  process.exit(run.status ?? 1);
}
