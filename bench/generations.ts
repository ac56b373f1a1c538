// End-to-end PDF generations: from `POST /generations` to the last byte of the download, against
// a live `scriptorium serve` (embedded mode, 2 pool threads), for documents of 1, 10 and 200
// pages. The client polls the job every 10 ms, as an eager integrator would; the figures split
// the time into queued + rendered + committed (until the job reads `completed`) and downloaded.
//
//   node --import tsx bench/generations.ts [--runs 5] [--write]
//   node --import tsx bench/generations.ts --url https://api.example.com --key hw_live_… --template tpl_…
//
// With --url the jobs go to a running deployment, with a live key on a plan that allows 200-page
// documents and the sheets they take, and its import of bench/generations.template.json
// (docs/operations.md, "Load testing"). How many characters make 1, 10 and 200 full pages is
// found by laying the text out here, with the same engine and template, not by sending jobs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prose } from './prose.ts';
import { styleOf } from './styles.ts';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
import { renderText } from '../src/render/page/document.ts';
import { machine, ROOT, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    write: { type: 'boolean', default: false },
    /** A running deployment instead (its base URL), with a live key and a template of it. */
    url: { type: 'string' },
    key: { type: 'string', default: process.env.SCRIPTORIUM_API_KEY },
    template: { type: 'string' },
  },
});
if (args.url && (!args.key || !args.template))
  throw new Error('--url needs --key (or SCRIPTORIUM_API_KEY) and --template, both of that deployment');
if (args.url && args.write)
  throw new Error("--write records this machine's figures; a deployment's are printed only");
const runs = Number(args.runs);
const TARGETS = [1, 10, 200];

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-generations-'));
const unlimited = 1_000_000;
const env = {
  DATA_DIR: dir,
  POOL_THREADS: '2',
  RATE_LIMIT_PER_MINUTE: '10000000',
  PLAN_CATALOG: JSON.stringify({
    pro: { sheetsPerPeriod: { 7: unlimited, 30: unlimited }, pagesPerDay: unlimited },
  }),
};
// The render benchmark's document at 36 pt, so that 200 full pages fit in the 100,000 characters
// a job may hold: the template the deployment imports, and the style the page search lays out.
const templateFile = join(ROOT, 'bench/generations.template.json');
const TEMPLATE = JSON.parse(readFileSync(templateFile, 'utf8')) as { style: Record<string, unknown> };
const user = args.url
  ? { key: args.key!, template: args.template! }
  : seedAccount(env, 'bench', templateFile, { mode: 'live' });
const server = args.url ? null : await serve(env);
const base = args.url ? `${args.url.replace(/\/+$/, '')}/api/v1` : `http://127.0.0.1:${server!.port}/api/v1`;
const headers = { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' };
const text = prose(100_000, 11);

interface Run {
  pages: number;
  completedMs: number;
  totalMs: number;
  bytes: number;
}

async function generate(chars: number): Promise<Run> {
  const t0 = performance.now();
  const posted = await fetch(`${base}/generations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ templateId: user.template, text: text.slice(0, chars) }),
  });
  if (posted.status !== 202) throw new Error(`POST /generations: ${posted.status} ${await posted.text()}`);
  const { id } = (await posted.json()) as { id: string };
  let job: { status: string; pages?: number; error?: unknown };
  for (;;) {
    job = (await (await fetch(`${base}/generations/${id}`, { headers })).json()) as typeof job;
    if (job.status !== 'queued' && job.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 10));
  }
  if (job.status !== 'completed')
    throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`);
  const completedMs = performance.now() - t0;
  const pdf = new Uint8Array(
    await (await fetch(`${base}/generations/${id}/download`, { headers })).arrayBuffer(),
  );
  const totalMs = performance.now() - t0;
  if (String.fromCharCode(...pdf.subarray(0, 5)) !== '%PDF-')
    throw new Error(`job ${id}: the download is not a PDF`);
  return { pages: job.pages!, completedMs, totalMs, bytes: pdf.length };
}

/** The most characters of the text that make `pages` full pages, laid out here as the server will. */
function charsFor(pages: number): number {
  const fonts = bundledChain(bundledFontSource('caveat'));
  const style = styleOf(TEMPLATE.style);
  const count = (chars: number) => {
    try {
      return renderText({ style, text: text.slice(0, chars), fonts }).pages.length;
    } catch (err) {
      // Past the 200 pages a job may have: more than any target.
      if ((err as { code?: string }).code === 'TOO_MANY_PAGES') return Number.POSITIVE_INFINITY;
      throw err;
    }
  };
  let lo = 1; // makes at most `pages` pages
  let hi = text.length; // makes more
  if (count(hi) <= pages) throw new Error(`the whole text makes ${pages} pages or fewer`);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (count(mid) > pages) hi = mid;
    else lo = mid;
  }
  return lo;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = [];
for (const target of TARGETS) {
  const chars = charsFor(target);
  // One run to warm the workers up, then the runs that count.
  await generate(chars);
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) results.push(await generate(chars));
  if (results[0]!.pages !== target)
    console.error(
      `${target} pages asked, ${results[0]!.pages} made: the server's engine lays the text out otherwise`,
    );
  const row = {
    pages: results[0]!.pages,
    chars,
    completed: median(results.map((r) => r.completedMs)),
    total: median(results.map((r) => r.totalMs)),
    bytes: results[0]!.bytes,
  };
  console.error(
    `${row.pages} pages (${chars} characters): completed ${row.completed.toFixed(0)} ms, downloaded ${row.total.toFixed(0)} ms`,
  );
  rows.push(row);
}
await server?.stop();
rmSync(dir, { recursive: true, force: true });

const table = [
  `### PDF generations end to end, ${new Date().toISOString().slice(0, 10)} (bench/generations.ts)`,
  '',
  args.url
    ? `Against ${args.url} with its template ${args.template}; load generator on ${machine()}; medians of ${runs} runs after a warm-up run each.`
    : `${machine()}; \`scriptorium serve\` in embedded mode (SQLite, in-process queue, local files) with 2 pool threads; one client posting a job, polling it every 10 ms and downloading the PDF; medians of ${runs} runs after a warm-up run each. Template: the render benchmark's (A4, lined, line height 2) at 36 pt, every letter effect at its default; each document fills its last page.`,
  '',
  '| pages | characters | POST to `completed` | POST to last byte of the PDF | PDF size |',
  '|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.pages} | ${r.chars.toLocaleString('en-US')} | ${r.completed.toFixed(0)} ms | ${r.total.toFixed(0)} ms | ${(r.bytes / 1e6).toFixed(2)} MB |`,
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
