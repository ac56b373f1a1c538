// Building a personal font from photos of a filled sample sheet, on one render thread: the basic
// A4 sheet's pages written in Kalam through the engine and photographed as a phone would (JPEG,
// about 6 MP), then decoded, read (OpenCV) and built (Potrace, opentype.js) by a pool of one
// thread. The first build on a fresh thread loads OpenCV and Potrace; the warm figure is the
// median of the builds after it.
//
//   node --import tsx bench/hand-build.ts [--runs 5] [--write]
import { parseArgs } from 'node:util';
import { sheetLayout } from '../src/render/index.ts';
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

async function timed(scans: typeof photos): Promise<{ cold: number; warm: number; rss: number }> {
  const pool = new PiscinaRenderer({
    threads: 1,
    timeoutMs: 120_000,
    memoryMb: 512,
    fontCacheBytes: 64 * 2 ** 20,
  });
  const times: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      const started = performance.now();
      const built = await pool.buildHand({ name: 'Bench hand', scans, createdAt: '2026-11-27T00:00:00Z' });
      times.push(performance.now() - started);
      if (!built.ok) throw new Error(built.message);
    }
  } finally {
    await pool.close();
  }
  const warm = times.slice(1).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  return { cold: times[0]!, warm, rss: process.memoryUsage().rss };
}

const rows: string[] = [];
for (const [what, scans] of [
  ['one page (90 boxes)', photos.slice(0, 1)],
  ['the sheet, 2 pages (174 boxes)', photos],
] as const) {
  const r = await timed([...scans]);
  const px = scans.reduce((n, s) => n + s.width * s.height, 0) / 1e6;
  const mb = scans.reduce((n, s) => n + s.bytes.length, 0) / 1e6;
  rows.push(
    `| ${what} | ${px.toFixed(1)} MP, ${mb.toFixed(1)} MB JPEG | ${(r.cold / 1000).toFixed(2)} s | ${(r.warm / 1000).toFixed(2)} s |`,
  );
}

const table = `### Personal font from a sample sheet, ${new Date().toISOString().slice(0, 10)} (bench/hand-build.ts)

${machine()}; the basic A4 sheet written in Kalam through the engine and photographed as a phone would (3°, perspective, side light, noise, JPEG 75); a pool of one render thread decodes, reads and builds. Cold: the first build on a fresh thread (OpenCV and Potrace load); warm: the median of ${runs} builds after it.

| pictures | size | cold | warm |
|---|---|---:|---:|
${rows.join('\n')}
`;
process.stdout.write(`${table}\n`);
if (args.write) record(ROOT, table);
