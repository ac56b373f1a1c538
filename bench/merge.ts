// Merging a batch's letters into one PDF: the engine's streaming merge (mergePdfs) against a PDF
// library (@cantoo/pdf-lib: load each, copy its pages, save) and qpdf (`--empty --pages`), on the
// same one-page A5 letters as bench/batch.ts. Each way runs in a process of its own, so its peak
// resident memory is its own.
//
//   node --import tsx bench/merge.ts [--rows 1000] [--library-rows 250] [--write]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { RenderRequest } from '../src/app/ports/renderer.ts';
import { toRenderSpec } from '../src/domain/render-spec.ts';
import { parseTemplate } from '../src/domain/template.ts';
import { mergePdfs } from '../src/render/index.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { prose } from './prose.ts';
import { record } from './record.ts';
import { machine, ROOT } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    'library-rows': { type: 'string', default: '250' },
    write: { type: 'boolean', default: false },
    // Internal: one way's run in its own process.
    way: { type: 'string' },
    dir: { type: 'string' },
  },
});
const DISTINCT = 20;
/** Letter i: a file of its own (a batch's rows are files of their own; qpdf reads a path given twice once). */
const letterFile = (dir: string, i: number) => join(dir, `letter-${i}.pdf`);

if (args.way) {
  // A child: merge `rows` letters read from `dir` one at a time, write the result, report.
  const dir = args.dir!;
  const rows = Number(args.rows);
  const out = join(dir, `${args.way}.pdf`);
  const t0 = performance.now();
  if (args.way === 'engine') {
    const file = createWriteStream(out);
    const sources = async function* () {
      for (let i = 0; i < rows; i++) yield readFileSync(letterFile(dir, i));
    };
    for await (const chunk of mergePdfs(sources(), { title: 'Letters', createdAt: '2026-11-27T00:00:00Z' }))
      if (!file.write(chunk)) await new Promise<void>((r) => file.once('drain', () => r()));
    await new Promise<void>((r) => file.end(() => r()));
  } else {
    const merged = await PDFDocument.create();
    for (let i = 0; i < rows; i++) {
      const src = await PDFDocument.load(readFileSync(letterFile(dir, i)));
      for (const page of await merged.copyPages(src, src.getPageIndices())) merged.addPage(page);
    }
    writeFileSync(out, await merged.save());
  }
  const s = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ s, rssMb: process.resourceUsage().maxRSS / 1024, bytes: statSync(out).size }));
  process.exit(0);
}

const N = Number(args.rows);
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-merge-'));
try {
  const parsed = parseTemplate({
    version: 2,
    name: 'Thank-you letter',
    mode: 'simple',
    style: { fontId: 'font_76FIvrxbMWVVj6WyJCWgxI', pageSize: 'A5', fontSize: 16 },
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const pool = new PiscinaRenderer({
    threads: 2,
    timeoutMs: 60_000,
    memoryMb: 512,
    fontCacheBytes: 64 * 2 ** 20,
  });
  let letterBytes = 0;
  for (let i = 0; i < DISTINCT; i++) {
    const { spec } = toRenderSpec(
      parsed.template,
      { input: { text: `Dear friend number ${i + 1}, ${prose(450, i + 1)}` } },
      { subscribed: true, textLimit: 100_000 },
    );
    const request: RenderRequest = {
      output: 'pdf',
      spec: { ...spec, style: { ...spec.style, modifiers: { ...spec.style.modifiers, seed: i + 1 } } },
      fonts: {},
      images: {},
      createdAt: '2026-11-27T00:00:00Z',
      limits: { maxPages: 200, maxBytes: 55_000_000 },
    };
    const done = await pool.run(request);
    writeFileSync(letterFile(dir, i), done.bytes);
    letterBytes += done.bytes.length;
  }
  await pool.close();
  for (let i = DISTINCT; i < N; i++) copyFileSync(letterFile(dir, i % DISTINCT), letterFile(dir, i));

  const self = fileURLToPath(import.meta.url);
  const child = (way: string, rows: number) => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', self, '--way', way, '--dir', dir, '--rows', String(rows)],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (run.status !== 0) throw new Error(`${way}: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as { s: number; rssMb: number; bytes: number };
  };
  const qpdf = (rows: number) => {
    const files = Array.from({ length: rows }, (_, i) => letterFile(dir, i));
    const out = join(dir, 'qpdf.pdf');
    const t0 = performance.now();
    // GNU time's %M: the peak resident set in KiB.
    const timed = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', 'qpdf', '--empty', '--pages', ...files, '--', out],
      {
        encoding: 'utf8',
      },
    );
    if (timed.status !== 0) throw new Error(`qpdf: ${timed.stderr}`);
    const s = (performance.now() - t0) / 1000;
    return { s, rssMb: Number(timed.stderr.trim().split('\n').pop()) / 1024, bytes: statSync(out).size };
  };
  const check = (name: string) => execFileSync('qpdf', ['--check', join(dir, name)], { stdio: 'ignore' });

  const rows: { way: string; rows: number; r: { s: number; rssMb: number; bytes: number } }[] = [];
  rows.push({ way: 'engine (mergePdfs, streaming)', rows: N, r: child('engine', N) });
  check('engine.pdf');
  rows.push({ way: 'qpdf --empty --pages', rows: N, r: qpdf(N) });
  const libraryRows = Number(args['library-rows']);
  rows.push({ way: '@cantoo/pdf-lib copyPages', rows: libraryRows, r: child('pdf-lib', libraryRows) });
  const mb = (b: number) => (b / 1e6).toFixed(1);
  const table = [
    `### Merging a batch's letters into one PDF, ${new Date().toISOString().slice(0, 10)} (bench/merge.ts)`,
    '',
    `${machine()}; one-page A5 thank-you letters as a batch renders them (about 480 characters, every letter effect at its default, ${DISTINCT} distinct ones of ${mb(letterBytes / DISTINCT)} MB on average taken in turn), read from files one by one and merged into one PDF written to a file. Each way runs in a process of its own; its peak resident set is its own.`,
    '',
    '| way | letters | merged | time | letters/s | peak RSS |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ way, rows: n, r }) =>
        `| ${way} | ${n.toLocaleString('en-US')} | ${mb(r.bytes)} MB | ${r.s.toFixed(2)} s | ${Math.round(n / r.s).toLocaleString('en-US')} | ${Math.round(r.rssMb).toLocaleString('en-US')} MB |`,
    ),
  ].join('\n');
  console.log(table);
  if (args.write) record(ROOT, table);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
