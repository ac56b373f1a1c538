// POST /renders benchmark: a live `scriptorium serve` (embedded mode, 2 pool threads, quotas
// raised for the run) rendering a 20-line caption as SVG and as PNG, loaded by autocannon.
// Each connection uses a key of its own account, since an account may run one PNG render at a
// time. Rows at 2 connections (one per pool thread: the latency a client sees) and at 8 (a
// queue in front of the pool: throughput).
//
//   node --import tsx bench/renders.ts [--duration 10] [--write]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { caption as captionText } from './prose.ts';
import { machine, ROOT, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, write: { type: 'boolean', default: false } },
});
const duration = Number(args.duration);
const ACCOUNTS = 16;

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-renders-'));
const env = {
  ...process.env,
  DATA_DIR: dir,
  POOL_THREADS: '2',
  RATE_LIMIT_PER_MINUTE: '10000000',
  RENDERS_PER_MINUTE: '10000000',
  RENDERS_PER_DAY: '100000000',
};
// The caption of bench/render.ts: 20 lines at 14 pt on an 800 x 600 px card (1200 x 900 px at 144 DPI).
const caption = captionText();
const templateFile = join(dir, 'caption.template.json');
writeFileSync(
  templateFile,
  JSON.stringify({
    version: 2,
    name: 'Caption',
    mode: 'simple',
    style: {
      fontId: 'font_76FIvrxbMWVVj6WyJCWgxI',
      fontSize: 14,
      pageSize: { name: 'card', width: 800, height: 600, unit: 'px' },
      margins: { top: 5, right: 5, bottom: 5, left: 5 },
    },
  }),
);
const users = Array.from({ length: ACCOUNTS }, (_, i) => seedAccount(env, `bench ${i}`, templateFile));
const server = await serve(env, process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/sprof'] : []);
const port = server.port;

interface Row {
  format: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
}

let next = 0;
async function load(format: 'svg' | 'png', connections: number, seconds: number): Promise<Row> {
  // A run's last requests may still be rendering when it ends: let them finish, and give each
  // connection of the next run an account of its own.
  await new Promise((r) => setTimeout(r, 1000));
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/renders`,
    method: 'POST',
    connections,
    duration: seconds,
    setupClient: (client) => {
      const u = users[next++ % users.length]!;
      client.setHeaders({ authorization: `Bearer ${u.key}`, 'content-type': 'application/json' });
      client.setBody(JSON.stringify({ templateId: u.template, text: caption, format }));
    },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${format}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return {
    format,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

const rows: Row[] = [];
for (const format of (process.env.FORMATS ?? 'svg,png').split(',') as ('svg' | 'png')[]) {
  await load(format, 2, 3); // warm-up: both workers load fonts and JIT, not recorded
  for (const connections of (process.env.CONNS ?? '2,8').split(',').map(Number)) {
    const row = await load(format, connections, duration);
    console.error(
      `${format} c=${connections}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms`,
    );
    rows.push(row);
  }
}
await server.stop();
rmSync(dir, { recursive: true, force: true });

const target = (r: Row) => (r.connections === 2 ? (r.format === 'svg' ? 'p50 ≤ 10 ms' : 'p50 ≤ 60 ms') : '');
const table = [
  `### Synchronous renders, ${new Date().toISOString().slice(0, 10)} (bench/renders.ts)`,
  '',
  `${machine()}; \`scriptorium serve\` in embedded mode with 2 pool threads, autocannon in this process, ${duration} s per row after a warm-up. Request: \`POST /api/v1/renders\` of a 20-line caption (${caption.length} characters, 14 pt on an 800 x 600 px card: 1200 x 900 px PNG at 144 DPI), each connection with its own account's key.`,
  '',
  '| format | connections | req/s | p50 ms | p99 ms | bytes per answer | target |',
  '|---|---:|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.format.toUpperCase()} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${Math.round(r.bytes).toLocaleString('en-US')} | ${target(r)} |`,
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
