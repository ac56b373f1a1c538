// HTTP front end benchmark: authenticated GET /templates/{id} against a live `scriptorium serve`
// (embedded limits, then Redis limits), next to a bare uWS hello-world measured in the same run as
// the ceiling. Load comes from separate processes: wrk (when installed) and autocannon.
//
//   node --import tsx bench/http.ts [--duration 10] [--connections 50] [--write]
//
// --write appends the table to docs/performance.md with the date and the machine.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, ROOT, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    write: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);

interface Figures {
  tool: string;
  rps: number;
  p50: number;
  p99: number;
}

function has(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** wrk latency lines read like "99%    4.26ms" or "99%  812.00us". */
function ms(text: string, pct: string): number {
  const m = new RegExp(`${pct}%\\s+([\\d.]+)(us|ms|s)`).exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]!]!;
}

function wrk(url: string, headers: Record<string, string>): Figures {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', ...h, url], {
    encoding: 'utf8',
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return { tool: 'wrk', rps, p50: ms(out, '50'), p99: ms(out, '99') };
}

function autocannon(url: string, headers: Record<string, string>): Figures {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const bin = join(ROOT, 'node_modules', '.bin', 'autocannon');
  const out = JSON.parse(
    execFileSync(bin, ['-j', '-c', String(connections), '-d', String(duration), ...h, url], {
      encoding: 'utf8',
    }),
  );
  if (out.non2xx > 0 || out.errors > 0)
    throw new Error(`autocannon saw ${out.non2xx} non-2xx and ${out.errors} errors`);
  return { tool: 'autocannon', rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99 };
}

function start(
  cmd: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, cmd, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (ready.test(out)) resolve({ child, out: () => out });
    });
    child.on('exit', (code) => reject(new Error(`${cmd.join(' ')} exited with ${code}: ${out}`)));
  });
}

async function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
): Promise<(Figures & { label: string })[]> {
  const rows = [];
  autocannon(url, headers); // warm-up: JIT and caches, not recorded
  if (has('wrk')) rows.push({ label, ...wrk(url, headers) });
  rows.push({ label, ...autocannon(url, headers) });
  for (const r of rows)
    console.error(`${label} ${r.tool}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
  return rows;
}

const rows: (Figures & { label: string })[] = [];
const bare = await start(['bench/bare-uws.cjs'], {}, /listening on (\d+)/);
const barePort = /listening on (\d+)/.exec(bare.out())![1];
rows.push(...(await measure('bare uWS hello-world (ceiling)', `http://127.0.0.1:${barePort}/`, {})));
bare.child.kill();

for (const [label, extra] of [
  ['scriptorium, embedded (memory limits)', {}],
  ['scriptorium, embedded, framing check off', { FRAMING_CHECK: 'false' }],
  // Every request writes its access line (LOG_LEVEL=info, the default; the other rows run at warn).
  ['scriptorium, embedded, access lines at info', { LOG_LEVEL: 'info' }],
  [
    'scriptorium, Redis limits',
    { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `bench-${process.pid}:` },
  ],
] as const) {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
  const env = { DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '10000000', ...extra };
  const { key, template } = seedAccount(env, 'bench', 'src/app/demo/letter.template.json');
  const server = await serve(env, [], [], 'LOG_LEVEL' in extra ? 'ignore' : 'inherit');
  const port = server.port;
  rows.push(
    ...(await measure(label, `http://127.0.0.1:${port}/api/v1/templates/${template}`, {
      Authorization: `Bearer ${key}`,
    })),
  );
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const table = [
  `### HTTP front end, ${new Date().toISOString().slice(0, 10)} (bench/http.ts)`,
  '',
  `${machine()}; ${connections} connections, ${duration} s per run, load generator on the same machine.`,
  'Request: authenticated `GET /api/v1/templates/{id}` (key check, per-key rate limit, request counting, template read).',
  '',
  '| server | load tool | req/s | p50 ms | p99 ms |',
  '|---|---|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.tool} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
  ),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
