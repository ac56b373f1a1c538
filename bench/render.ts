// Render engine benchmark, one thread: a 200-page A4 document of 100,000 characters of prose in
// Caveat with every letter effect on → display list → PDF; and a 20-line caption → SVG and PNG.
//
//   node --import tsx bench/render.ts [--runs 7] [--write] [--out /tmp/doc.pdf]
//
// It runs itself bundled, as the service runs its render thread (bench/as-built.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
// Before resvg loads: its allocator's settings (workers/native-memory.ts).
import '../workers/image-allocator.ts';
import { releaseImageMemory } from '../workers/native-memory.ts';
import { renderText } from '../src/render/page/document.ts';
import { displayListToPdf } from '../src/render/write/pdf.ts';
import { writePng } from '../src/render/index.ts';
import { resvgRasterizer as raster } from '../workers/resvg.ts';
import { pageToSvg } from '../src/render/write/svg.ts';
import { caption as captionText, prose } from './prose.ts';
import { DOC_STYLE, seeded, styleOf } from './styles.ts';
import { DEFLATE_LEVEL, deflateStream as deflate, pngZlib } from '../workers/render-task.ts';
import { machine } from './serve.ts';
import { asBuilt } from './as-built.ts';
import { record } from './record.ts';

// Timed as the service runs the engine: bundled (bench/as-built.ts).
await asBuilt(import.meta.url);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    write: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const runs = Number(args.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fonts = bundledChain(bundledFontSource('caveat'));
const docStyle = styleOf(DOC_STYLE);
const text = prose(100_000);

const doc = {
  layout: [] as number[],
  pdf: [] as number[],
  total: [] as number[],
  bytes: 0,
  pages: 0,
  first: 0,
};
for (let i = 0; i < runs + 1; i++) {
  const t0 = performance.now();
  const list = renderText({ style: docStyle, text, fonts });
  const t1 = performance.now();
  const pdf = displayListToPdf(list, { deflate, createdAt: '2026-11-22T00:00:00Z' });
  const t2 = performance.now();
  if (i === 0) {
    if (args.out) writeFileSync(args.out, pdf);
    doc.first = t2 - t0;
    continue; // warm-up: fonts load, JIT, and the thread's caches of words, outlines and charstrings fill
  }
  doc.layout.push(t1 - t0);
  doc.pdf.push(t2 - t1);
  doc.total.push(t2 - t0);
  doc.bytes = pdf.length;
  doc.pages = list.pages.length;
}

const caption = captionText();
// 800 x 600 CSS px = 600 x 450 pt: a 1200 x 900 px image at 144 DPI.
const capStyle = styleOf({
  fontSize: 14,
  pageSize: { name: 'caption', width: 800, height: 600, unit: 'px' },
  margins: { top: 5, right: 5, bottom: 5, left: 5 },
});
const cap = { svg: [] as number[], png: [] as number[], cleanup: [] as number[] };
const capLines = renderText({ style: capStyle, text: caption, fonts }).pages[0]!.lines.length;
const captionSvg = () => {
  const list = renderText({ style: capStyle, text: caption, fonts });
  return pageToSvg(list, list.pages[0]!);
};
const captionPng = () => {
  const list = renderText({ style: capStyle, text: caption, fonts });
  return writePng(list, list.pages[0]!, 144, { raster, ...pngZlib });
};
for (let i = 0; i < runs * 3 + 1; i++) {
  const t0 = performance.now();
  captionSvg();
  const t1 = performance.now();
  captionPng();
  const t2 = performance.now();
  // What a render thread does after replying: collect the image's wrappers so that their native
  // memory is reused, where resvg drew it (workers/native-memory.ts).
  releaseImageMemory();
  await new Promise((resolve) => setImmediate(resolve));
  const t3 = performance.now();
  if (i === 0) continue;
  cap.svg.push(t1 - t0);
  cap.png.push(t2 - t1);
  cap.cleanup.push(t3 - t2);
}

// The caption as customers send it: each with a seed of its own (a new hand's variation, a new
// sheet's grain), after one warm-up caption.
const capJson = {
  fontSize: 14,
  pageSize: { name: 'caption', width: 800, height: 600, unit: 'px' },
  margins: { top: 5, right: 5, bottom: 5, left: 5 },
};
const fresh: number[] = [];
for (let i = 0; i < runs * 3 + 1; i++) {
  const t0 = performance.now();
  const list = renderText({ style: seeded(capJson, 5_000 + i), text: caption, fonts });
  writePng(list, list.pages[0]!, 144, { raster, ...pngZlib });
  const t1 = performance.now();
  releaseImageMemory();
  await new Promise((resolve) => setImmediate(resolve));
  if (i > 0) fresh.push(t1 - t0);
}

const table = [
  `### Render engine, one thread, ${new Date().toISOString().slice(0, 10)} (bench/render.ts)`,
  '',
  `${machine()}; medians of ${runs} runs after a warm-up run. A render thread keeps its fonts, shaped words, drawings and their charstrings between documents, as the pool's workers do.`,
  '',
  '| case | median | target |',
  '|---|---:|---|',
  `| ${doc.pages}-page A4 PDF, ${text.length.toLocaleString('en-US')} characters, all letter effects: layout | ${median(doc.layout).toFixed(0)} ms | |`,
  `| same: PDF writing (libdeflate level ${DEFLATE_LEVEL}) | ${median(doc.pdf).toFixed(0)} ms | |`,
  `| same: total | ${median(doc.total).toFixed(0)} ms | ≤ 400 ms |`,
  `| same: size | ${(doc.bytes / 1e6).toFixed(2)} MB | ≤ 4 MB |`,
  `| same: the first document in a fresh thread (fonts loading, caches empty, no JIT yet) | ${doc.first.toFixed(0)} ms | |`,
  `| ${capLines}-line caption, 1200 x 900 px at 144 DPI: layout + SVG | ${median(cap.svg).toFixed(1)} ms | ≤ 5 ms |`,
  `| same: layout + PNG at 144 DPI | ${median(cap.png).toFixed(1)} ms | p50 ≤ 50 ms |`,
  `| same, a new seed each caption: layout + PNG | ${median(fresh).toFixed(1)} ms | ≤ 25 ms |`,
  `| same: the thread's clean-up after replying (a young-generation collection where resvg drew the image) | ${median(cap.cleanup).toFixed(1)} ms | |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
