// Resident memory of a live `scriptorium serve` (embedded mode, the default 2 pool threads) while
// a dashboard user adds and deletes an 8 MiB personal font, round after round: each upload is
// parsed and drawn on a render thread, then deleted. The server's resident memory
// (/proc/<pid>/status, VmRSS) is read before the first round, after it, and after each later one.
//
//   node --import tsx bench/font-memory.ts [--rounds 30] [--write]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { paddedFont } from '../test/helpers/fonts.ts';
import { record } from './record.ts';
import { dashboardUser, machine, ROOT, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: { write: { type: 'boolean', default: false }, rounds: { type: 'string', default: '30' } },
});
const ROUNDS = Number(args.rounds);
const MiB = 2 ** 20;
const HAND = readFileSync(
  createRequire(import.meta.url).resolve(
    '@expo-google-fonts/indie-flower/400Regular/IndieFlower_400Regular.ttf',
  ),
);
const FONT = paddedFont(HAND, 8 * MiB);

const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-fonts-'));
const env = { DATA_DIR: dir, PERSONAL_FONT_UPLOADS_PER_HOUR: '100000' };
const server = await serve(env);
const series: number[] = [];
let before = 0;
try {
  const user = await dashboardUser(env, server.port);
  const { base, account } = user;
  const headers = { ...user.headers, 'content-type': 'application/octet-stream' };
  const pid = server.child.pid!;
  before = rss(pid);
  for (let i = 0; i <= ROUNDS; i++) {
    const added = await fetch(`${base}/accounts/${account}/fonts?name=Hand${i}`, {
      method: 'POST',
      headers,
      body: FONT,
    });
    if (added.status !== 201) throw new Error(`round ${i}: ${added.status} ${await added.text()}`);
    const { font } = (await added.json()) as { font: { id: string } };
    const removed = await fetch(`${base}/accounts/${account}/fonts/${font.id}/delete`, {
      method: 'POST',
      headers,
    });
    if (removed.status !== 200) throw new Error(`round ${i}: delete ${removed.status}`);
    series.push(rss(pid));
    console.error(`round ${i}: ${Math.round(series.at(-1)! / MiB)} MB`);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const mb = (n: number) => `${Math.round(n / MiB)} MB`;
const first = series[0]!;
const at = (round: number) => series[Math.min(round, series.length - 1)]!;
const table = [
  `### Personal fonts and resident memory, ${new Date().toISOString().slice(0, 10)} (bench/font-memory.ts)`,
  '',
  `${machine()}; \`scriptorium serve\` in embedded mode (2 pool threads); a dashboard user on the Pro plan adds an 8 MiB font (Indie Flower padded with an unused table: parsed and its sample line drawn on a render thread) and deletes it, ${ROUNDS + 1} times. Resident memory of the server process (VmRSS).`,
  '',
  '| point | resident memory | over the first round |',
  '|---|---:|---:|',
  `| before the first upload | ${mb(before)} | |`,
  `| after the first round | ${mb(first)} | |`,
  ...[10, 20, 30, 60]
    .filter((r) => r <= ROUNDS)
    .map((r) => `| after ${r} more | ${mb(at(r))} | ${mb(at(r) - first)} |`),
  `| most, over all rounds | ${mb(Math.max(...series))} | ${mb(Math.max(...series) - first)} |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
