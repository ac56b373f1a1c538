// Scriptorium against headless Chromium (Debian's chromium through playwright-core), measured
// in the same run, interleaved: the 100,000-character document as a PDF (per-letter spans with
// the same kind of jitter; and plain text with no effects), and the 20-line caption as a PNG.
//
//   node --import tsx bench/chromium.ts [--runs 3] [--write]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { launchChromium } from '../test/helpers/chromium.ts';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
// Before resvg loads: its allocator's settings (workers/native-memory.ts).
import '../workers/image-allocator.ts';
import { releaseImageMemory } from '../workers/native-memory.ts';
import { renderText } from '../src/render/page/document.ts';
import { writePng } from '../src/render/index.ts';
import { resvgRasterizer as raster } from '../workers/resvg.ts';
import { Random } from '../src/render/prng.ts';
import { PDF_DEFLATE_LEVEL } from '../workers/render-task.ts';
import { caption as captionText, prose } from './prose.ts';
import { styleOf } from './render-doc.ts';
import { machine } from './serve.ts';
import { record as recordTable } from './record.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, write: { type: 'boolean', default: false } },
});
const runs = Number(args.runs);

const fonts = bundledChain(bundledFontSource('caveat'));
const caveat = Buffer.from(bundledFontSource('caveat').bytes).toString('base64');
const capStyle = styleOf({
  fontSize: 14,
  pageSize: { name: 'caption', width: 800, height: 600, unit: 'px' },
  margins: { top: 5, right: 5, bottom: 5, left: 5 },
});
const text = prose(100_000);
const caption = captionText();

const esc = (s: string) => s.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** HTML with one transformed span per letter: rotation, scale and baseline jitter like ours. */
function jitteredHtml(body: string, css: string): string {
  const r = new Random(1, 'chromium');
  const paras = body
    .split('\n')
    .map((p) =>
      [...p]
        .map((ch) =>
          ch === ' '
            ? ' '
            : `<span style="display:inline-block;transform:translateY(${(r.soft() * 0.8).toFixed(2)}pt) rotate(${(r.soft() * 2).toFixed(2)}deg) scale(${(1 + r.soft() * 0.04).toFixed(3)})">${esc(ch)}</span>`,
        )
        .join(''),
    );
  return page(paras.map((p) => `<p>${p}</p>`).join(''), css);
}

function page(inner: string, css: string): string {
  return `<!doctype html><html><head><style>@font-face{font-family:Caveat;src:url(data:font/ttf;base64,${caveat})}
body{margin:0;font-family:Caveat;color:#1b2a6b}p{margin:0}${css}</style></head><body>${inner}</body></html>`;
}

const docCss = '@page{size:A4;margin:20mm 15mm 15mm 20mm}body{font-size:28pt;line-height:2}';
const capCss =
  'body{font-size:14pt;line-height:1.5;padding:5mm;width:800px;height:600px;box-sizing:border-box}';
const plainHtml = page(
  text
    .split('\n')
    .map((p) => `<p>${esc(p)}</p>`)
    .join(''),
  docCss,
);
const docHtml = jitteredHtml(text, docCss);
const capHtml = jitteredHtml(caption, capCss);

const browser = await launchChromium();
const tab = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1.5 });

type Case = 'ours' | 'chromiumSpans' | 'chromiumPlain' | 'oursPng' | 'chromiumPng';
const times: Record<Case, number[]> = {
  ours: [],
  chromiumSpans: [],
  chromiumPlain: [],
  oursPng: [],
  chromiumPng: [],
};
const time = async (key: Case, fn: () => unknown, settleMs = 1500) => {
  // Chromium's processes go on working (layout, GC) after answering: let the two cores settle.
  await new Promise((r) => setTimeout(r, settleMs));
  const t0 = performance.now();
  await fn();
  times[key].push(performance.now() - t0);
};
const record = async (key: Case, measure: () => Promise<number>) => {
  await new Promise((r) => setTimeout(r, 1500));
  times[key].push(await measure());
};
// Our side runs in a process of its own, as Chromium does: the browser's bookkeeping (and the
// megabytes of HTML handed to it) stay out of our heap.
const ours = async () =>
  Number(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/render-doc.ts', '--runs', '7'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim(),
  );
const chromiumPdf = async (html: string) => {
  await tab.setContent(html, { waitUntil: 'load' });
  return tab.pdf({ format: 'A4', preferCSSPageSize: true });
};
const oursPng = () => {
  const list = renderText({ style: capStyle, text: caption, fonts });
  return writePng(list, list.pages[0]!, 144, {
    raster,
    deflate: (b) => deflateSync(b, { level: PDF_DEFLATE_LEVEL }),
  });
};
const chromiumPng = async () => {
  await tab.setContent(capHtml, { waitUntil: 'load' });
  return tab.screenshot({ type: 'png' });
};

// Warm-up of every contender (ours until the JIT has settled), then interleaved runs.
for (let i = 0; i < 10; i++) {
  oursPng();
  releaseImageMemory();
  await new Promise((r) => setImmediate(r));
}
await chromiumPdf(plainHtml);
await chromiumPng();
for (let i = 0; i < runs; i++) {
  await record('ours', ours);
  await time('chromiumSpans', () => chromiumPdf(docHtml));
  await record('ours', ours);
  await time('chromiumPlain', () => chromiumPdf(plainHtml));
  for (let k = 0; k < 5; k++) {
    await time('oursPng', oursPng, 200);
    releaseImageMemory(); // as a render thread does after replying; the settling pause lets it free
    await time('chromiumPng', chromiumPng, 200);
  }
}
await browser.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<Case, number>;
const machineLine = `${machine()}, ${browser.version ? `Chromium ${browser.version()}` : 'Chromium'}`;
const table = [
  `### Against headless Chromium, ${new Date().toISOString().slice(0, 10)} (bench/chromium.ts)`,
  '',
  `${machineLine}; medians of interleaved runs (${runs} per PDF case, ${runs * 5} per image case) after a warm-up of each; our PDF side runs in its own process (medians of 7 warm renders each time). Chromium gets the same text in Caveat (a data-URL web font), a reused page, and prints with \`page.pdf\` / \`page.screenshot\`.`,
  '',
  '| case | Scriptorium | Chromium | ratio | target |',
  '|---|---:|---:|---:|---|',
  `| 100,000 characters, per-letter jitter, PDF | ${m.ours.toFixed(0)} ms | ${m.chromiumSpans.toFixed(0)} ms (one transformed span per letter) | ${(m.chromiumSpans / m.ours).toFixed(0)}x | ≥ 150x |`,
  `| same text; Chromium plain, no effects | ${m.ours.toFixed(0)} ms (with effects) | ${m.chromiumPlain.toFixed(0)} ms | ${(m.chromiumPlain / m.ours).toFixed(2)}x | ≥ 2x |`,
  `| 20-line caption, 1200 x 900 px PNG | ${m.oursPng.toFixed(1)} ms | ${m.chromiumPng.toFixed(1)} ms (screenshot) | ${(m.chromiumPng / m.oursPng).toFixed(2)}x | |`,
  '',
].join('\n');
console.log(table);
if (args.write) recordTable(ROOT, table);
