// Building a personal font from photos of a filled sample sheet: the basic A4 sheet's pages
// written in Kalam through the engine and photographed as a phone would (JPEG, about 6 MP), then
// decoded, read (OpenCV) and built (Potrace, opentype.js, the pen's strokes) by the renderer's
// process that reads sample sheets. The first build in a fresh process loads Node, the engine,
// OpenCV and Potrace; the warm figure is the median of the builds after it, each from pictures
// the process has not seen (a corner painted, encoded again); a hand's preview after an edit
// builds from pictures read before, without the strokes.
//
//   node --import tsx bench/hand-build.ts [--runs 5] [--write]
import { parseArgs } from 'node:util';
import jpeg from 'jpeg-js';
import { sheetLayout } from '../src/foundry/index.ts';
import { bundledFontSource } from '../test/helpers/fonts.ts';
import { sheetPhotos } from '../test/helpers/sheet-photo.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { record } from './record.ts';
import { machine, ROOT } from './serve.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, write: { type: 'boolean', default: false } },
});
const runs = Number(args.runs);
const photos = await sheetPhotos(sheetLayout('basic', 'a4'), bundledFontSource('kalam'));

type Photo = (typeof photos)[number];

/**
 * The photo with a corner of the table under the page (16 px square) painted another grey and
 * encoded again: the same page, a picture the process has not read.
 */
function another(photo: Photo, n: number): Photo {
  const image = jpeg.decode(photo.bytes, { useTArray: true });
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++)
      image.data.fill((n * 37) % 256, (y * image.width + x) * 4, (y * image.width + x) * 4 + 3);
  return { ...photo, bytes: new Uint8Array(jpeg.encode(image, 75).data) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(scans: Photo[]): Promise<{ cold: number; warm: number; preview: number }> {
  const pool = new PiscinaRenderer({
    threads: 1,
    timeoutMs: 120_000,
    memoryMb: 512,
    fontCacheBytes: 64 * 2 ** 20,
  });
  const build = async (pictures: Photo[], preview = false) => {
    const started = performance.now();
    const built = await pool.buildHand({
      name: 'Bench hand',
      scans: pictures,
      createdAt: '2026-11-27T00:00:00Z',
      preview,
    });
    if (!built.ok) throw new Error(built.message);
    return performance.now() - started;
  };
  try {
    const cold = await build(scans);
    const warm: number[] = [];
    const previews: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const fresh = scans.map((p) => another(p, i));
      warm.push(await build(fresh));
      previews.push(await build(fresh, true));
    }
    return { cold, warm: median(warm), preview: median(previews) };
  } finally {
    await pool.close();
  }
}

const rows: string[] = [];
for (const [what, scans] of [
  ['one page (90 boxes)', photos.slice(0, 1)],
  ['the sheet, 2 pages (174 boxes)', photos],
] as const) {
  const r = await timed([...scans]);
  const px = scans.reduce((n, s) => n + s.width * s.height, 0) / 1e6;
  const mb = scans.reduce((n, s) => n + s.bytes.length, 0) / 1e6;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  rows.push(
    `| ${what} | ${px.toFixed(1)} MP, ${mb.toFixed(1)} MB JPEG | ${s(r.cold)} | ${s(r.warm)} | ${s(r.preview)} |`,
  );
}

const table = `### Personal font from a sample sheet, ${new Date().toISOString().slice(0, 10)} (bench/hand-build.ts)

${machine()}; the basic A4 sheet written in Kalam through the engine and photographed as a phone would (3°, perspective, side light, noise, JPEG 75); the renderer's process for sample sheets decodes, reads and builds, the pen's strokes included. Cold: the first build in a fresh process (Node, the engine, OpenCV and Potrace load); warm: the median of ${runs} builds after it, each from pictures the process has not read; preview: the median of ${runs} previews (pages read before, no strokes), as after an edit in the dashboard.

| pictures | size | cold | warm | preview |
|---|---|---:|---:|---:|
${rows.join('\n')}
`;
process.stdout.write(`${table}\n`);
if (args.write) record(ROOT, table);
