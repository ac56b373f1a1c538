// Scriptorium against headless Chromium (Debian's chromium through playwright-core), in one run,
// interleaved, on the work customers send: one-page A5 letters, each with its own text and seed
// (against Chromium's plain PDF of the same text, and with one transformed span per letter, as
// a browser-based generator varies its letters); the 100,000-character document in a new seed
// each run (against Chromium plain); and the 20-line caption as a PNG. Every Chromium case gets
// a fresh page. Each side's CPU time is measured: ours in the process that renders (all its
// threads), Chromium's over all of its processes (/proc), the page opened before the clock starts.
//
//   node --import tsx bench/chromium.ts [--letters 20] [--docs 3] [--write]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '../test/helpers/chromium.ts';
import { bundledChain, bundledFontSource } from '../test/helpers/fonts.ts';
// Before resvg loads: its allocator's settings (workers/native-memory.ts).
import '../workers/image-allocator.ts';
import { releaseImageMemory } from '../workers/native-memory.ts';
import { renderText } from '../src/render/page/document.ts';
import { writePng } from '../src/render/index.ts';
import { resvgRasterizer as raster } from '../workers/resvg.ts';
import { Random } from '../src/render/prng.ts';
import { pngZlib } from '../workers/render-task.ts';
import { caption as captionText, prose } from './prose.ts';
import { letterText, seeded } from './styles.ts';
import { machine } from './serve.ts';
import { asBuilt } from './as-built.ts';
import { record as recordTable } from './record.ts';
import { treeCpu } from './proc.ts';

// Timed as the service runs the engine: bundled (bench/as-built.ts).
await asBuilt(import.meta.url);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: args } = parseArgs({
  options: {
    letters: { type: 'string', default: '20' },
    docs: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
  },
});
const [letters, docs] = [Number(args.letters), Number(args.docs)];

const caveat = Buffer.from(bundledFontSource('caveat').bytes).toString('base64');
const esc = (s: string) => s.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** HTML with one transformed span per letter: rotation, scale and baseline jitter like ours. */
function spansHtml(body: string, css: string, seed: number): string {
  const r = new Random(seed, 'chromium');
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

const plainHtml = (body: string, css: string) =>
  page(
    body
      .split('\n')
      .map((p) => `<p>${esc(p)}</p>`)
      .join(''),
    css,
  );

function page(inner: string, css: string): string {
  return `<!doctype html><html><head><style>@font-face{font-family:Caveat;src:url(data:font/ttf;base64,${caveat})}
body{margin:0;font-family:Caveat;color:#1b2a6b}p{margin:0}${css}</style></head><body>${inner}</body></html>`;
}

// The same page set-ups as ours: the letter at the template defaults on A5, the document as
// bench/render-doc.ts sets it.
const letterCss = '@page{size:A5;margin:20mm 20mm 20mm 25mm}body{font-size:18pt;line-height:1.5}';
const docCss = '@page{size:A4;margin:20mm 15mm 15mm 20mm}body{font-size:28pt;line-height:2}';
const doc = prose(100_000);

// Our side: a process of its own, warm (as a pool's thread is after its first documents).
const side = spawn(process.execPath, ['--import', 'tsx', 'bench/render-doc.ts'], {
  cwd: ROOT,
  stdio: ['pipe', 'pipe', 'inherit'],
});
const replies = createInterface({ input: side.stdout! })[Symbol.asyncIterator]();
type Figure = { ms: number; cpuMs: number; bytes: number };
const ours = async (req: object): Promise<Figure> => {
  side.stdin!.write(`${JSON.stringify(req)}\n`);
  const { value } = await replies.next();
  return JSON.parse(value as string) as Figure;
};

const browser = await launchChromium();
const chromiumCpu = () => treeCpu(process.pid, [side.pid!]) / 1000;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A PDF of `html` in a fresh page; the clock and the CPU count run from setContent to the bytes. */
const chromiumPdf = async (html: string): Promise<Figure> => {
  const tab = await browser.newPage();
  await settle(300);
  const [cpu0, t0] = [chromiumCpu(), performance.now()];
  await tab.setContent(html, { waitUntil: 'load' });
  const pdf = await tab.pdf({ preferCSSPageSize: true });
  const ms = performance.now() - t0;
  await settle(200); // the browser's processes finish their share of the work (layout, GC)
  const cpuMs = chromiumCpu() - cpu0;
  await tab.close();
  return { ms, cpuMs, bytes: pdf.length };
};

type Case = 'letter' | 'letterPlain' | 'letterSpans' | 'doc' | 'docPlain' | 'png' | 'pngChromium';
const figures: Record<Case, Figure[]> = {
  letter: [],
  letterPlain: [],
  letterSpans: [],
  doc: [],
  docPlain: [],
  png: [],
  pngChromium: [],
};

// Warm-up: our process renders letters and documents in seeds the timed runs never use;
// Chromium prints each kind once.
// Twelve documents: V8 optimises the code run once a document (the document's loop, its font
// program) only after several, each compile 20-30 ms of a helper thread's time.
for (let i = 0; i < 30; i++) await ours({ kind: 'letter', i: 10_000 + i });
for (let i = 0; i < 12; i++) await ours({ kind: 'doc', seed: 80 + i });
await chromiumPdf(plainHtml(letterText(9_999), letterCss));
await chromiumPdf(spansHtml(letterText(9_999), letterCss, 9_999));
await chromiumPdf(plainHtml(doc, docCss));

// Letters: each round one new letter on every side, the order turning from round to round.
for (let i = 0; i < letters; i++) {
  const text = letterText(i);
  const runs: [Case, () => Promise<Figure>][] = [
    ['letter', () => ours({ kind: 'letter', i })],
    ['letterPlain', () => chromiumPdf(plainHtml(text, letterCss))],
    ['letterSpans', () => chromiumPdf(spansHtml(text, letterCss, i))],
  ];
  for (let k = 0; k < runs.length; k++) {
    const [key, run] = runs[(i + k) % runs.length]!;
    await settle(300);
    figures[key].push(await run());
  }
}
// The document: a new seed each round.
const docHtml = plainHtml(doc, docCss);
for (let i = 0; i < docs; i++) {
  await settle(1000);
  figures.doc.push(await ours({ kind: 'doc', seed: 100 + i }));
  await settle(1000);
  figures.docPlain.push(await chromiumPdf(docHtml));
}

// The caption as a PNG: ours in this process, on one thread; Chromium's screenshot in a page.
const fonts = bundledChain(bundledFontSource('caveat'));
// Each caption in a hand of its own seed, as customers send them (nothing of one kept warm for the next).
const capStyle = (seed: number) =>
  seeded(
    {
      fontSize: 14,
      pageSize: { name: 'caption', width: 800, height: 600, unit: 'px' },
      margins: { top: 5, right: 5, bottom: 5, left: 5 },
    },
    seed,
  );
const caption = captionText();
const capHtml = spansHtml(
  caption,
  'body{font-size:14pt;line-height:1.5;padding:5mm;width:800px;height:600px;box-sizing:border-box}',
  1,
);
const oursPng = (seed: number) => {
  const list = renderText({ style: capStyle(seed), text: caption, fonts });
  return writePng(list, list.pages[0]!, 144, {
    raster,
    ...pngZlib,
  });
};
// Warm as a pool's thread is after its first renders: 30 captions (the optimising compiler is
// still at work through the first twenty).
for (let i = 0; i < 30; i++) {
  oursPng(500 + i);
  releaseImageMemory();
  await new Promise((r) => setImmediate(r));
}
const shot = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1.5 });
await shot.setContent(capHtml, { waitUntil: 'load' });
await shot.screenshot({ type: 'png' });
for (let i = 0; i < 15; i++) {
  await settle(200);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const png = oursPng(600 + i);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  figures.png.push({ ms, cpuMs: (cpu.user + cpu.system) / 1000, bytes: png.length });
  releaseImageMemory(); // as a render thread does after replying
  await settle(200);
  const [c0, s0] = [chromiumCpu(), performance.now()];
  await shot.setContent(capHtml, { waitUntil: 'load' });
  const bytes = (await shot.screenshot({ type: 'png' })).length;
  const sms = performance.now() - s0;
  await settle(200);
  figures.pngChromium.push({ ms: sms, cpuMs: chromiumCpu() - c0, bytes });
}
const version = browser.version();
await browser.close();
side.kill();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
// Medians of wall time; CPU as the mean (Chromium's is read in ticks of 10 ms); bytes as the mean.
const m = Object.fromEntries(
  Object.entries(figures).map(([k, v]) => [
    k,
    {
      ms: median(v.map((f) => f.ms)),
      cpuMs: mean(v.map((f) => f.cpuMs)),
      bytes: mean(v.map((f) => f.bytes)),
    },
  ]),
) as Record<Case, Figure>;
const kib = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1024).toFixed(0)} KiB`);
const row = (work: string, who: string, f: Figure) =>
  `| ${work} | ${who} | ${f.ms.toFixed(1)} ms | ${f.cpuMs.toFixed(1)} ms | ${kib(f.bytes)} |`;
const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const table = [
  `### Against headless Chromium, ${new Date().toISOString().slice(0, 10)} (bench/chromium.ts)`,
  '',
  `${machine()}, Chromium ${version}; ${letters} one-page A5 letters (about 480 characters, each its own text and seed) and ${docs} runs of the 100,000-character document (a new seed each), interleaved, after a warm-up in other seeds; each Chromium case in a fresh page, the same text in Caveat (a data-URL web font), printed with \`page.pdf\`. Wall time: median; CPU time (ours: the rendering process, all threads; Chromium: all its processes, from /proc) and bytes: mean.`,
  '',
  '| work | side | wall | CPU | size |',
  '|---|---|---:|---:|---:|',
  row('one-page letter', 'Scriptorium', m.letter),
  row('one-page letter', 'Chromium plain', m.letterPlain),
  row('one-page letter', 'Chromium, a transformed span per letter', m.letterSpans),
  row('100,000 characters, new seed', 'Scriptorium', m.doc),
  row('100,000 characters, new seed', 'Chromium plain', m.docPlain),
  row('20-line caption, 1200 x 900 px PNG', 'Scriptorium, one thread', m.png),
  row('20-line caption, 1200 x 900 px PNG', 'Chromium screenshot', m.pngChromium),
  '',
  '| target | measured | met |',
  '|---|---:|---|',
  `| letter: Chromium plain's CPU / ours ≥ 2x | ${x(m.letterPlain.cpuMs, m.letter.cpuMs)} | ${m.letterPlain.cpuMs >= 2 * m.letter.cpuMs ? 'yes' : 'no'} |`,
  `| letter: our bytes / Chromium plain's ≤ 1.5x | ${x(m.letter.bytes, m.letterPlain.bytes)} | ${m.letter.bytes <= 1.5 * m.letterPlain.bytes ? 'yes' : 'no'} |`,
  `| document, new seed: Chromium plain's CPU / ours ≥ 1.5x | ${x(m.docPlain.cpuMs, m.doc.cpuMs)} | ${m.docPlain.cpuMs >= 1.5 * m.doc.cpuMs ? 'yes' : 'no'} |`,
  `| document, new seed: ≤ 3 MB | ${kib(m.doc.bytes)} | ${m.doc.bytes <= 3e6 ? 'yes' : 'no'} |`,
  `| caption PNG on one thread ≤ 25 ms | ${m.png.ms.toFixed(1)} ms | ${m.png.ms <= 25 ? 'yes' : 'no'} |`,
  '',
].join('\n');
console.log(table);
if (args.write) recordTable(ROOT, table);
