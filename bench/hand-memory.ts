// Resident memory of a live `scriptorium serve` (embedded mode, the default 2 pool threads) while a
// dashboard user makes hands from photos of filled sample sheets: each hand of a bundled font
// written on both pages of the basic A4 sheet and photographed as a phone would (6 MP JPEGs, none
// seen before), started from page 1, given page 2, previewed and built; 10 hands, 20 pictures.
// The server's resident memory with its children's (/proc/<pid>/status, VmRSS) is read before the first picture, at
// its most (sampled every 100 ms), after the last build, and once the server has been idle.
//
//   node --import tsx bench/hand-memory.ts [--hands 10] [--idle 20] [--write]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sheetLayout } from '../src/foundry/index.ts';
import { bundledFontSource } from '../test/helpers/fonts.ts';
import { sheetPhotos } from '../test/helpers/sheet-photo.ts';
import { record } from './record.ts';
import { dashboardUser, machine, ROOT, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    hands: { type: 'string', default: '10' },
    idle: { type: 'string', default: '20' },
  },
});
const FONTS = [
  'kalam',
  'caveat',
  'patrick-hand',
  'indie-flower',
  'shadows-into-light',
  'gochi-hand',
  'homemade-apple',
  'reenie-beanie',
  'dancing-script',
  'nanum-pen-script',
].slice(0, Number(args.hands));
const IDLE_S = Number(args.idle);
const MiB = 2 ** 20;
const own = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0; // gone
  }
};
/** The processes `pid` started (the one that reads sample sheets), as /proc lists them. */
const children = (pid: number): number[] =>
  readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
/** The server's resident memory with its children's: what the service holds. */
const rss = (pid: number) => own(pid) + children(pid).reduce((sum, c) => sum + own(c), 0);

const layout = sheetLayout('basic', 'a4');
console.error(`photographing ${FONTS.length * 2} pages`);
const photos = [];
for (const slug of FONTS) photos.push(await sheetPhotos(layout, bundledFontSource(slug)));

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-hands-'));
const env = { DATA_DIR: dir, HAND_PICTURES_PER_HOUR: '100000', PERSONAL_FONT_UPLOADS_PER_HOUR: '100000' };
const server = await serve(env);
const figures = { before: 0, most: 0, afterWork: 0, idle: 0, pictures: 0, built: 0, seconds: 0 };
try {
  const { base, account, headers } = await dashboardUser(env, server.port);
  const call = async (method: string, path: string, body?: Uint8Array) => {
    const res = await fetch(`${base}/accounts/${account}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'image/jpeg' } : {}) },
      ...(body ? { body } : {}),
    });
    return { status: res.status, body: (await res.json()) as { id?: string; error?: { message: string } } };
  };
  const pid = server.child.pid!;
  await new Promise((r) => setTimeout(r, 2000));
  figures.before = rss(pid);
  figures.most = figures.before;
  const sampler = setInterval(() => {
    figures.most = Math.max(figures.most, rss(pid));
  }, 100);
  const t0 = performance.now();
  for (const [i, pages] of photos.entries()) {
    const made = await call('POST', `/hands?mode=live&name=Hand${i}`, pages[0]!.bytes);
    if (made.status !== 201)
      throw new Error(`${FONTS[i]}: page 1 ${made.status} ${made.body.error?.message}`);
    const added = await call('POST', `/hands/${made.body.id}/pictures?mode=live`, pages[1]!.bytes);
    if (added.status !== 201)
      throw new Error(`${FONTS[i]}: page 2 ${added.status} ${added.body.error?.message}`);
    figures.pictures += 2;
    const preview = await call('GET', `/hands/${made.body.id}`);
    if (preview.status !== 200)
      throw new Error(`${FONTS[i]}: preview ${preview.status} ${preview.body.error?.message}`);
    const built = await call('POST', `/hands/${made.body.id}/build`);
    if (built.status === 200) figures.built++;
    else console.error(`${FONTS[i]}: not built (${built.body.error?.message})`);
    console.error(`${FONTS[i]}: ${Math.round(rss(pid) / MiB)} MB`);
  }
  figures.seconds = (performance.now() - t0) / 1000;
  figures.afterWork = rss(pid);
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  clearInterval(sampler);
  figures.idle = rss(pid);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const mb = (n: number) => `${Math.round(n / MiB)} MB`;
const over = (n: number) => `${n >= figures.before ? '+' : ''}${mb(n - figures.before)}`;
const table = [
  `### Reading sheet photos and resident memory, ${new Date().toISOString().slice(0, 10)} (bench/hand-memory.ts)`,
  '',
  `${machine()}; \`scriptorium serve\` in embedded mode (2 pool threads); a dashboard user on the Pro plan makes ${FONTS.length} hands, each from two phone photos (about 6 MP JPEGs, none seen before) of the basic A4 sheet filled in with a bundled hand: started from page 1, given page 2, previewed, built (${figures.built} built). ${figures.pictures} pictures in ${figures.seconds.toFixed(1)} s. Resident memory of the server process and the processes it started, summed (VmRSS); "idle" after ${IDLE_S} s without requests.`,
  '',
  '| point | resident memory | over the start |',
  '|---|---:|---:|',
  `| before the first picture | ${mb(figures.before)} | |`,
  `| most, while reading and building | ${mb(figures.most)} | ${over(figures.most)} |`,
  `| after the last build | ${mb(figures.afterWork)} | ${over(figures.afterWork)} |`,
  `| idle | ${mb(figures.idle)} | ${over(figures.idle)} |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
