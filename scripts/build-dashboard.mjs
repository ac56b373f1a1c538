// Builds the dashboard (dashboard/vite.config.ts) into dist/dashboard as scripts/build.mjs builds
// the server (scripts/put-files.mjs): Vite's output is taken in memory and a file written only
// where its bytes change, so a server serving the dashboard while a build runs (`prepare` runs
// one) never finds it emptied, as Vite's own emptying of the directory left it for a moment.
//   node scripts/build-dashboard.mjs
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { filesUnder, putChanged, removeStale } from './put-files.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/dashboard`;
const results = await build({
  configFile: `${root}dashboard/vite.config.ts`,
  build: { write: false, emptyOutDir: false },
});
const outputs = (Array.isArray(results) ? results : [results]).flatMap((r) => r.output);
const files = outputs.map((o) => ({
  path: join(outdir, o.fileName),
  contents: Buffer.from(o.type === 'chunk' ? o.code : o.source),
}));
const changed = putChanged(files);
const stale = removeStale(outdir, new Set(outputs.map((o) => o.fileName)));
process.stdout.write(
  `build: ${files.length} files in dist/dashboard (${changed} written, ${stale.length} removed; ${filesUnder(outdir).length} there)\n`,
);
