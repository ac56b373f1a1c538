// How alike a word written again looks, in every bundled hand at the defaults: six "Never gonna"
// one per line, each word cut from the rendered page (PNG from the PNG writer, and the PDF
// rasterised by pdftoppm), scaled to 64 px high and laid over each other instance of it at its
// best shift within ±2 px; the mean IoU of their ink (test/helpers/repeats.ts). Lower is less alike.
//
//   node --import tsx bench/repeats.ts [--write]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { bundledChain, bundledFontSource, HANDS } from '../test/helpers/fonts.ts';
import { meanOverlap, wordsOf } from '../test/helpers/repeats.ts';
import { styleOf } from '../test/helpers/specs.ts';
import { bundledFontId } from '../src/domain/fonts.ts';
import { renderText } from '../src/render/page/document.ts';
import { writePng } from '../src/render/index.ts';
import { displayListToPdf } from '../src/render/write/pdf.ts';
import { resvgRasterizer as raster } from '../workers/resvg.ts';
import { record } from './record.ts';
import { machine } from './serve.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
const DPI = 144;
const TEXT = Array.from({ length: 6 }, () => 'Never gonna').join('\n');
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-repeats-'));

const rows: string[] = [];
const figures: number[][] = [];
for (const slug of HANDS) {
  const style = styleOf({ fontId: bundledFontId(slug) });
  const list = renderText({ style, text: TEXT, fonts: bundledChain(bundledFontSource(slug)) });
  const page = list.pages[0]!;
  const px = DPI / 72;
  const baselines = page.lines.map((l) => l.y * px);
  const size = style.fontSize * px;
  const png = writePng(list, page, DPI, { raster, deflate: (b) => deflateSync(b) });
  writeFileSync(join(dir, 'page.pdf'), displayListToPdf(list, { deflate: (b) => deflateSync(b) }));
  execFileSync('pdftoppm', [
    '-r',
    String(DPI),
    '-png',
    '-singlefile',
    join(dir, 'page.pdf'),
    join(dir, 'pdf'),
  ]);
  const fromPdf = readFileSync(join(dir, 'pdf.png'));
  const [a, b] = [
    meanOverlap(wordsOf(png, baselines, size, 2)),
    meanOverlap(wordsOf(fromPdf, baselines, size, 2)),
  ];
  figures.push([a, b]);
  rows.push(`| ${slug} | ${a.toFixed(2)} | ${b.toFixed(2)} |`);
}
rmSync(dir, { recursive: true, force: true });
const mean = (k: number) => figures.reduce((s, f) => s + f[k]!, 0) / figures.length;
const table = [
  `### Repeated words, ${new Date().toISOString().slice(0, 10)} (bench/repeats.ts)`,
  '',
  `${machine()}. Six "Never gonna" one per line at the defaults (18 pt), ${DPI} DPI; each word cut from the page, scaled to 64 px high, laid over each other instance at its best shift within ±2 px: the mean IoU of the ink of the 30 pairs (15 of each word). Target: ≤ 0.40 on average.`,
  '',
  '| hand | PNG | PDF (pdftoppm) |',
  '|---|---:|---:|',
  ...rows,
  `| **mean** | **${mean(0).toFixed(2)}** | **${mean(1).toFixed(2)}** |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
