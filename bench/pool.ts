// Render pool benchmark: the 100,000-character document of bench/render.ts through the piscina
// pool (2 threads by default), as pages per second, and the process RSS while it runs (the
// workers are threads of this process, so this is the pool's whole footprint).
//
//   node --import tsx bench/pool.ts [--threads 2] [--jobs 12] [--young MB] [--memory MB] [--write]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RenderRequest } from '../src/app/ports/renderer.ts';
import { textSpec } from '../test/helpers/specs.ts';
import { descriptors } from '../src/config/index.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';
import { DOC_STYLE, styleOf } from './styles.ts';
import { machine } from './serve.ts';
import { record } from './record.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: {
    threads: { type: 'string', default: '2' },
    jobs: { type: 'string', default: '12' },
    write: { type: 'boolean', default: false },
    young: { type: 'string' },
    memory: { type: 'string', default: '512' },
  },
});
const threads = Number(args.threads);
const jobs = Number(args.jobs);

const style = styleOf(DOC_STYLE);
const task = (i: number): RenderRequest => ({
  output: 'pdf',
  spec: textSpec({ ...style, modifiers: { ...style.modifiers, seed: i + 1 } }, prose(100_000, i + 1)),
  fonts: {},
  images: {},
  createdAt: '2026-11-22T00:00:00Z',
  limits: { maxPages: 200, maxBytes: 55_000_000 },
});

const before = process.memoryUsage().rss;
const young = Number(args.young ?? descriptors.renderYoungMb.default);
const pool = new PiscinaRenderer({
  threads,
  timeoutMs: 60_000,
  memoryMb: Number(args.memory),
  youngMb: young,
});
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
await Promise.all(Array.from({ length: threads }, (_, i) => pool.run(task(100 + i)))); // warm-up: each worker loads its fonts
const t0 = performance.now();
const results = await Promise.all(Array.from({ length: jobs }, (_, i) => pool.run(task(i))));
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
await pool.close();
const pages = results.reduce((n, r) => n + r.pages, 0);

const table = [
  `### Render pool, ${new Date().toISOString().slice(0, 10)} (bench/pool.ts)`,
  '',
  `${machine()}; ${jobs} documents of 100,000 characters (${Math.round(pages / jobs)} pages each) through ${threads} worker threads (young generation ${young} MiB), after one warm-up document per thread.`,
  '',
  '| figure | value | target |',
  '|---|---:|---|',
  `| throughput | ${Math.round(pages / seconds).toLocaleString('en-US')} pages/s (${(jobs / seconds).toFixed(2)} documents/s) | |`,
  `| RSS of the process before the pool started | ${Math.round(before / 2 ** 20)} MiB | |`,
  `| peak RSS of the process with its ${threads} workers | ${Math.round(peak / 2 ** 20)} MiB | ≤ 300 MB |`,
  `| so, per worker while rendering | ${Math.round((peak - before) / threads / 2 ** 20)} MiB | |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
