// Batches against single jobs on the same server: N one-page letters (1,000 by default) sent as
// one batch (`POST /batches`, polled every 250 ms, then the ZIP downloaded) and as N single jobs
// through the API (two in flight, the spec's unfinished limit, each polled every 20 ms and its
// PDF downloaded), embedded and in a farm; next to the render pool's raw pages per second on the
// same letters (PiscinaRenderer in this process, every thread kept busy), measured in the same run.
// Each batch is sent with `merge: true`: its merged PDF is downloaded twice, checked with qpdf and
// compared byte for byte.
//
//   node --import tsx bench/batch.ts [--rows 1000] [--only pool|embedded|farm] [--write]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RenderRequest } from '../src/app/ports/renderer.ts';
import { toRenderSpec } from '../src/domain/render-spec.ts';
import { parseTemplate } from '../src/domain/template.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';
import { record } from './record.ts';
import { farmServices, machine, ROOT, type Served, seedAccount, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    only: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const N = Number(args.rows);
const THREADS = 2;

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-batch-'));
const TEMPLATE = {
  version: 2,
  name: 'Thank-you letter',
  mode: 'simple',
  style: { fontId: 'font_76FIvrxbMWVVj6WyJCWgxI', pageSize: 'A5', fontSize: 16 },
} as const;
const templateFile = join(dir, 'letter.template.json');
writeFileSync(templateFile, JSON.stringify(TEMPLATE));
/** Letter i: a greeting and about 450 characters of its own prose, one A5 page. */
const letter = (i: number) => `Dear friend number ${i + 1}, ${prose(450, i + 1)}`;
const unlimited = 1_000_000;
const common = {
  POOL_THREADS: String(THREADS),
  RATE_LIMIT_PER_MINUTE: '10000000',
  LOG_LEVEL: 'warn',
  PLAN_CATALOG: JSON.stringify({
    pro: { sheetsPerPeriod: { 7: unlimited, 30: unlimited }, pagesPerDay: unlimited },
  }),
};

interface Figures {
  documents: number;
  pages: number;
  /** POST to the last document completed. */
  completedS: number;
  /** POST to the last byte downloaded. */
  totalS: number;
  /** A batch's merged PDF: its size, the first download's time, and whether it was whole twice over. */
  merged?: { bytes: number; s: number; whole: boolean };
}

/**
 * The render pool on its own, on the same letters: each with a seed of its own (as a batch's rows
 * are drawn), or all with the template's one seed (as single jobs of one template are).
 */
async function rawPool(seedPerLetter: boolean): Promise<Figures> {
  const parsed = parseTemplate(TEMPLATE);
  if (!parsed.ok) throw new Error(parsed.message);
  const task = (i: number): RenderRequest => {
    const { spec } = toRenderSpec(
      parsed.template,
      { input: { text: letter(i) } },
      { subscribed: true, textLimit: 100_000 },
    );
    return {
      output: 'pdf',
      spec: seedPerLetter
        ? { ...spec, style: { ...spec.style, modifiers: { ...spec.style.modifiers, seed: i + 1 } } }
        : spec,
      fonts: {},
      images: {},
      createdAt: '2026-11-27T00:00:00Z',
      limits: { maxPages: 200, maxBytes: 55_000_000 },
    };
  };
  // As the server's pool: its defaults of RENDER_MEMORY_MB and FONT_CACHE_MB.
  const pool = new PiscinaRenderer({
    threads: THREADS,
    timeoutMs: 60_000,
    memoryMb: 512,
    fontCacheBytes: 64 * 2 ** 20,
  });
  await Promise.all(Array.from({ length: THREADS * 4 }, (_, i) => pool.run(task(N + i)))); // warm-up
  // Every thread kept busy, a few tasks waiting each (a task's time limit counts from its submission).
  let next = 0;
  let pages = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: THREADS * 3 }, async () => {
      for (let i = next++; i < N; i = next++) {
        const done = await pool.run(task(i));
        pages += done.pages;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  await pool.close();
  return { documents: N, pages, completedS: s, totalS: s };
}

const api = (port: number, key: string) => {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    async json(method: string, path: string, body?: unknown) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      // biome-ignore lint/suspicious/noExplicitAny: the benchmark reads the JSON it asked for
      return JSON.parse(text) as any;
    },
    async bytes(path: string): Promise<number> {
      return (await this.body(path)).byteLength;
    },
    async body(path: string): Promise<Buffer> {
      const res = await fetch(`${base}${path}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
};

async function asBatch(port: number, user: { key: string; template: string }, n: number): Promise<Figures> {
  const a = api(port, user.key);
  const t0 = performance.now();
  const made = await a.json('POST', '/batches', {
    templateId: user.template,
    rows: Array.from({ length: n }, (_, i) => ({ text: letter(i) })),
    merge: true,
  });
  let b = made;
  while (b.status !== 'completed' && b.status !== 'cancelled') {
    await new Promise((r) => setTimeout(r, 250));
    b = await a.json('GET', `/batches/${made.id}`);
  }
  if (b.rows.completed !== n) throw new Error(`batch ${made.id}: ${JSON.stringify(b.rows)}`);
  const completedS = (performance.now() - t0) / 1000;
  await a.bytes(`/batches/${made.id}/download`);
  const totalS = (performance.now() - t0) / 1000;
  return { documents: n, pages: b.pages, completedS, totalS, merged: await merged(a, made.id) };
}

/** The batch's merged PDF, downloaded twice: whole when qpdf passes it and both are the same bytes. */
async function merged(a: ReturnType<typeof api>, id: string): Promise<Figures['merged']> {
  const t0 = performance.now();
  const first = await a.body(`/batches/${id}/merged`);
  const s = (performance.now() - t0) / 1000;
  const file = join(dir, `${id}.pdf`);
  writeFileSync(file, first);
  let whole = true;
  try {
    execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
  } catch {
    whole = false;
  }
  rmSync(file);
  const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  whole &&= digest(await a.body(`/batches/${id}/merged`)) === digest(first);
  return { bytes: first.byteLength, s, whole };
}

async function asSingles(port: number, user: { key: string; template: string }, n: number): Promise<Figures> {
  const a = api(port, user.key);
  let next = 0;
  let pages = 0;
  let lastCompleted = 0;
  const t0 = performance.now();
  // Two in flight: the account's unfinished jobs allowed by the spec.
  await Promise.all(
    [0, 1].map(async () => {
      for (let i = next++; i < n; i = next++) {
        const job = await a.json('POST', '/generations', { templateId: user.template, text: letter(i) });
        let j = job;
        while (j.status === 'queued' || j.status === 'processing') {
          await new Promise((r) => setTimeout(r, 20));
          j = await a.json('GET', `/generations/${job.id}`);
        }
        if (j.status !== 'completed') throw new Error(`job ${job.id}: ${j.status}`);
        lastCompleted = performance.now();
        pages += j.pages;
        await a.bytes(`/generations/${job.id}/download`);
      }
    }),
  );
  return {
    documents: n,
    pages,
    completedS: (lastCompleted - t0) / 1000,
    totalS: (performance.now() - t0) / 1000,
  };
}

/** `raw`: the pool row the figure is a share of. */
const rows: { setup: string; way: string; f: Figures; raw: 'own' | 'one' }[] = [];
const ownSeeds = await rawPool(true);
const oneSeed = await rawPool(false);
rows.push({
  setup: `render pool alone, ${THREADS} threads`,
  way: 'a seed per letter',
  f: ownSeeds,
  raw: 'own',
});
rows.push({
  setup: `render pool alone, ${THREADS} threads`,
  way: 'one seed for all',
  f: oneSeed,
  raw: 'one',
});
console.error(
  `pool: ${ownSeeds.completedS.toFixed(1)} s with a seed each, ${oneSeed.completedS.toFixed(1)} s with one`,
);

if (!args.only || args.only === 'embedded') {
  const env = { ...common, DATA_DIR: join(dir, 'embedded') };
  const users = [0, 1, 2].map((i) => seedAccount(env, `bench ${i}`, templateFile, { mode: 'live' }));
  const server = await serve(env);
  await asBatch(server.port, users[2]!, 20); // warm-up
  rows.push({
    setup: 'embedded, 1 process',
    way: 'one batch',
    f: await asBatch(server.port, users[0]!, N),
    raw: 'own',
  });
  console.error(`embedded batch: ${rows.at(-1)!.f.completedS.toFixed(1)} s`);
  rows.push({
    setup: 'embedded, 1 process',
    way: 'single jobs',
    f: await asSingles(server.port, users[1]!, N),
    raw: 'one',
  });
  console.error(`embedded singles: ${rows.at(-1)!.f.completedS.toFixed(1)} s`);
  await server.stop();
}

if (!args.only || args.only === 'farm') {
  const services = await farmServices(dir, common);
  const users = await services.seed(3, templateFile);
  const processes: Served[] = [];
  for (const role of ['api', 'worker', 'worker'])
    processes.push(await serve(services.env, [], ['--role', role]));
  const port = processes[0]!.port;
  await asBatch(port, users[2]!, 20); // warm-up
  rows.push({
    setup: 'farm, 1 API + 2 workers',
    way: 'one batch',
    f: await asBatch(port, users[0]!, N),
    raw: 'own',
  });
  console.error(`farm batch: ${rows.at(-1)!.f.completedS.toFixed(1)} s`);
  rows.push({
    setup: 'farm, 1 API + 2 workers',
    way: 'single jobs',
    f: await asSingles(port, users[1]!, N),
    raw: 'one',
  });
  console.error(`farm singles: ${rows.at(-1)!.f.completedS.toFixed(1)} s`);
  for (const p of processes) await p.stop();
  await services.close();
}
rmSync(dir, { recursive: true, force: true });

const rate = (f: Figures) => f.pages / f.completedS;
const rawRate = { own: rate(ownSeeds), one: rate(oneSeed) };
const table = [
  `### Batches against single jobs, ${new Date().toISOString().slice(0, 10)} (bench/batch.ts)`,
  '',
  `${machine()}; ${N} one-page A5 thank-you letters (about 480 characters each, every letter effect at its default), live key on a plan with raised allowances, rate limit raised. A batch: one \`POST /batches\`, polled every 250 ms, then its ZIP downloaded. Single jobs: two in flight (the spec's unfinished limit), each polled every 20 ms and its PDF downloaded. The pool rows render the same letters in this process, every thread kept busy, each letter with a seed of its own (as a batch draws its rows) or all with the template's one seed (as single jobs of one template are drawn: their words share drawings, which the threads' caches reuse); each API row is compared with the pool row of its seeds. Farm: PostgreSQL, Redis and s3rver on this machine; ${THREADS} render threads a worker, BATCH_SHARE 4.`,
  '',
  "| setup | way | documents | pages | POST to last completed | to last byte | pages/s | of the pool's raw pages/s (same seeds) |",
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    ({ setup, way, f, raw }) =>
      `| ${setup} | ${way} | ${f.documents.toLocaleString('en-US')} | ${f.pages.toLocaleString('en-US')} | ${f.completedS.toFixed(1)} s | ${f.totalS.toFixed(1)} s | ${rate(f).toFixed(1)} | ${Math.round((100 * rate(f)) / rawRate[raw])} % |`,
  ),
  '',
  'Merged PDF of each batch (`GET /batches/{id}/merged`, downloaded with fetch as the batch ended, then again):',
  '',
  '| setup | letters | merged | download | qpdf --check, same bytes twice |',
  '|---|---:|---:|---:|---|',
  ...rows.flatMap(({ setup, f }) =>
    f.merged
      ? [
          `| ${setup} | ${f.documents.toLocaleString('en-US')} | ${(f.merged.bytes / 1e6).toFixed(1)} MB | ${f.merged.s.toFixed(2)} s | ${f.merged.whole ? 'yes' : 'NO'} |`,
        ]
      : [],
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
