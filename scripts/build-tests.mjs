// Builds the test files to JavaScript before tap runs them (docs/decisions.md, "Tooling"): each
// test/<tier>/<name>.test.ts is bundled with esbuild, the project's sources it imports included
// and packages left to node_modules, into test/<tier>.built/<name>.test.js. A test file then
// loads as one module with no loader in front of it: through tsx, every file a test imports was
// resolved and transformed by loader hooks on a thread of their own, 0.5-0.7 s of CPU a test
// file. The built file sits as deep as its source, so the paths a test names from its own place
// (`../fixtures/…`, `../../src/…`) lead where they did; source maps let a failure name the .ts line.
// The programs tests start as processes of their own (PROGRAMS) are built beside them, into
// test/helpers.built/, for the same reason: through tsx each start cost 1.7 s of CPU.
//   node scripts/build-tests.mjs
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const TIERS = ['unit', 'contract', 'e2e'];
const PROGRAMS = ['charge-child'];

const entryPoints = TIERS.flatMap((tier) => {
  rmSync(`${root}test/${tier}.built`, { recursive: true, force: true });
  return readdirSync(`${root}test/${tier}`)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => ({ in: `test/${tier}/${f}`, out: `test/${tier}.built/${f.replace(/\.ts$/, '')}` }));
});
rmSync(`${root}test/helpers.built`, { recursive: true, force: true });
for (const name of PROGRAMS)
  entryPoints.push({ in: `test/helpers/${name}.ts`, out: `test/helpers.built/${name}` });

await esbuild.build({
  absWorkingDir: root,
  entryPoints,
  outdir: root,
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
});
process.stdout.write(
  `build: ${entryPoints.length - PROGRAMS.length} test files in test/{${TIERS.join(',')}}.built, ${PROGRAMS.length} program in test/helpers.built\n`,
);
