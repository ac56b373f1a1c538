// Resident memory of a PDF job full of large images, against a live `scriptorium serve`
// (embedded mode, one pool thread). Each case starts a fresh server, uploads N distinct 8 MP
// palette PNGs (each decoded to pixels by the PDF writer), submits a Document v1 job placing
// them all, and samples the server's resident memory (/proc/<pid>/status, VmRSS) every 10 ms
// until the job ends: the figure is the peak over the resident memory just before the POST.
// A case run with the job budget lifted shows what the budget (JOB_IMAGE_MEMORY_MB) prevents;
// the default budget is also checked to admit 8 such images and refuse 20.
//
//   node --import tsx bench/job-images.ts [--write]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pngOf } from '../test/helpers/images.ts';
import { record } from './record.ts';
import { machine, ROOT, seedAccount, serve } from './serve.ts';

const { values: args } = parseArgs({ options: { write: { type: 'boolean', default: false } } });

const SIDE = 2828; // 7,997,584 pixels: just under 8 MP
/** A palette PNG of SIDE x SIDE px, 256 colours, a pattern that compresses (about 0.1 MB). */
function bigPalettePng(seed: number): Buffer {
  const raw = Buffer.alloc(SIDE * (1 + SIDE));
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++) raw[y * (1 + SIDE) + 1 + x] = ((x >> 4) ^ (y >> 4) ^ seed) & 255;
  const plte = Buffer.alloc(256 * 3);
  for (let i = 0; i < 256; i++) plte.set([i, (i * 7 + seed) & 255, 255 - i], i * 3);
  return pngOf({ width: SIDE, height: SIDE, depth: 8, colour: 3, raw, before: [['PLTE', plte]] });
}

const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

interface Case {
  images: number;
  status: number;
  growthMb: number | null;
  ms: number | null;
  error?: string;
}

async function run(images: number, budgetMb?: number): Promise<Case> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-images-'));
  const unlimited = 1_000_000;
  const env = {
    DATA_DIR: dir,
    POOL_THREADS: '1',
    RATE_LIMIT_PER_MINUTE: '10000000',
    ...(budgetMb ? { JOB_IMAGE_MEMORY_MB: String(budgetMb) } : {}),
    PLAN_CATALOG: JSON.stringify({
      pro: { sheetsPerPeriod: { 7: unlimited, 30: unlimited }, pagesPerDay: unlimited },
    }),
  };
  const user = seedAccount(env, 'bench', join(ROOT, 'src/app/demo/document.template.json'), { mode: 'live' });
  const server = await serve(env);
  try {
    const base = `http://127.0.0.1:${server.port}/api/v1`;
    const auth = { authorization: `Bearer ${user.key}` };
    const ids: string[] = [];
    for (let i = 0; i < images; i++) {
      const up = await fetch(`${base}/assets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/png' },
        body: bigPalettePng(i),
      });
      if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
      ids.push(((await up.json()) as { id: string }).id);
    }
    await new Promise((r) => setTimeout(r, 500));
    const pid = server.child.pid!;
    const before = rss(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(pid));
    }, 10);
    const t0 = performance.now();
    const posted = await fetch(`${base}/generations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        templateId: user.template,
        content: ids.map((assetId) => ({ type: 'image', assetId, width: '50%' })),
      }),
    });
    const body = (await posted.json()) as { id: string; error?: { message: string } };
    if (posted.status !== 202) {
      clearInterval(sampler);
      return { images, status: posted.status, growthMb: null, ms: null, error: body.error?.message };
    }
    let job: { status: string; error?: unknown };
    for (;;) {
      job = (await (await fetch(`${base}/generations/${body.id}`, { headers: auth })).json()) as typeof job;
      if (job.status !== 'queued' && job.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    clearInterval(sampler);
    if (job.status !== 'completed') throw new Error(`job ended ${job.status}: ${JSON.stringify(job.error)}`);
    return { images, status: 202, growthMb: (peak - before) / 2 ** 20, ms: performance.now() - t0 };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: { budget: string; c: Case }[] = [];
for (const images of [1, 8, 20]) {
  const c = await run(images, 4096);
  console.error(`${images} images, budget lifted: +${c.growthMb?.toFixed(0)} MB`);
  rows.push({ budget: '4096 MiB (lifted)', c });
}
for (const images of [8, 20]) {
  const c = await run(images);
  console.error(`${images} images, default budget: ${c.status}`);
  rows.push({ budget: '256 MiB (default)', c });
}

const table = [
  `### Images in a job, ${new Date().toISOString().slice(0, 10)} (bench/job-images.ts)`,
  '',
  `${machine()}; \`scriptorium serve\` in embedded mode with 1 pool thread, a fresh server per row; N distinct ${SIDE} x ${SIDE} px (8 MP) palette PNGs uploaded, then one Document v1 job placing each once. Resident memory of the server sampled every 10 ms from the POST until the job ended; the growth is the peak over the resident memory just before the POST.`,
  '',
  '| images | JOB_IMAGE_MEMORY_MB | POST | resident memory growth | POST to `completed` |',
  '|---:|---|---:|---:|---:|',
  ...rows.map(
    ({ budget, c }) =>
      `| ${c.images} | ${budget} | ${c.status} | ${c.growthMb === null ? '— (refused)' : `${c.growthMb.toFixed(0)} MB`} | ${c.ms === null ? '—' : `${(c.ms / 1000).toFixed(1)} s`} |`,
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
