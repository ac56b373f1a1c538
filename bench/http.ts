// HTTP front end benchmark: authenticated GET /templates/{id} against a live `scriptorium serve`
// (embedded limits, then Redis limits, then the farm's edge in front of one and of two API
// processes), next to a bare uWS hello-world measured in the same run as the ceiling. Load comes
// from separate processes: wrk (when installed) and autocannon. Besides requests a second, each
// row says how much CPU the server's processes spent a request (the edge's included): on a shared
// machine that figure moves less than throughput does.
//
//   node --import tsx bench/http.ts [--duration 10] [--connections 50] [--only LABEL] [--write]
//   node --import tsx bench/http.ts --url https://api.example.com --key hw_test_… --template tpl_…
//
// With --url the same request is sent to a running deployment (its limits raised for the key:
// docs/operations.md, "Load testing"), and only its figures are printed: no ceiling, no CPU.
//
// --write appends the table to docs/performance.md with the date and the machine.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { edgeFor } from '../src/cli/edge.ts';
import { loadConfig } from '../src/config/index.ts';
import { farmServices, machine, ROOT, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';
import { cpuOf } from './proc.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    write: { type: 'boolean', default: false },
    /** Only the rows whose label holds this (and the ceiling), to look at one configuration. */
    only: { type: 'string', default: '' },
    /** A running deployment to measure instead (its base URL), with a key and a template of it. */
    url: { type: 'string' },
    key: { type: 'string', default: process.env.SCRIPTORIUM_API_KEY },
    template: { type: 'string' },
  },
});
const wanted = (label: string) => label.includes(args.only ?? '');
const duration = Number(args.duration);
/** The edge's port in the farm rows. */
const EDGE_PORT = 18_480;

async function until(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the edge did not become ready');
}
const connections = Number(args.connections);

interface Figures {
  tool: string;
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the server's processes spent, in µs a request. */
  cpuUs?: number;
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

// The load tools run beside this process's event loop, not blocking it: the farm rows' s3rver
// answers from here.
const run = promisify(execFile);

async function wrk(url: string, headers: Record<string, string>): Promise<Figures & { requests: number }> {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const { stdout: out } = await run(
    'wrk',
    ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', ...h, url],
    { encoding: 'utf8' },
  );
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return { tool: 'wrk', rps, p50: ms(out, '50'), p99: ms(out, '99'), requests };
}

async function autocannon(
  url: string,
  headers: Record<string, string>,
): Promise<Figures & { requests: number }> {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const bin = join(ROOT, 'node_modules', '.bin', 'autocannon');
  const out = JSON.parse(
    (
      await run(bin, ['-j', '-c', String(connections), '-d', String(duration), ...h, url], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout,
  );
  if (out.non2xx > 0 || out.errors > 0)
    throw new Error(
      `autocannon saw ${out.non2xx} non-2xx and ${out.errors} errors: ${JSON.stringify(out.statusCodeStats)}`,
    );
  return {
    tool: 'autocannon',
    rps: out.requests.average,
    p50: out.latency.p50,
    p99: out.latency.p99,
    requests: out.requests.total,
  };
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

/** Both tools in turn against `url`; `pids` are the server's processes, whose CPU time is read. */
async function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
  pids: number[],
): Promise<(Figures & { label: string })[]> {
  const rows = [];
  await autocannon(url, headers); // warm-up: JIT and caches, not recorded
  const tools = has('wrk') ? [wrk, autocannon] : [autocannon];
  for (const tool of tools) {
    const before = cpuOf(pids);
    const f = await tool(url, headers);
    rows.push({ label, ...f, cpuUs: pids.length ? (cpuOf(pids) - before) / f.requests : undefined });
  }
  for (const r of rows)
    console.error(
      `${label} ${r.tool}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.cpuUs === undefined ? "the server's CPU not measured (not a process of this machine)" : `${r.cpuUs.toFixed(1)} µs CPU a request`}`,
    );
  return rows;
}

function tableOf(rows: (Figures & { label: string })[], setting: string): string {
  return [
    `### HTTP front end, ${new Date().toISOString().slice(0, 10)} (bench/http.ts)`,
    '',
    setting,
    'Request: authenticated `GET /api/v1/templates/{id}` (key check, per-key rate limit, request counting, template read).',
    '',
    '| server | load tool | req/s | of the ceiling | p50 ms | p99 ms | server CPU µs a request |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const ceiling = rows.find((c) => c.label.endsWith('(ceiling)') && c.tool === r.tool)?.rps;
      const share = ceiling ? `${Math.round((100 * r.rps) / ceiling)} %` : '–';
      return `| ${r.label} | ${r.tool} | ${Math.round(r.rps).toLocaleString('en-US')} | ${share} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuUs ? r.cpuUs.toFixed(1) : '–'} |`;
    }),
    '',
  ].join('\n');
}

if (args.url) {
  if (args.write) throw new Error("--write records this machine's figures; a deployment's are printed only");
  if (!args.key || !args.template)
    throw new Error('--url needs --key (or SCRIPTORIUM_API_KEY) and --template, both of that deployment');
  const base = args.url.replace(/\/+$/, '');
  const probe = await fetch(`${base}/api/v1/templates/${args.template}`, {
    headers: { Authorization: `Bearer ${args.key}` },
  });
  if (probe.status !== 200)
    throw new Error(`GET /api/v1/templates/${args.template}: ${probe.status} ${await probe.text()}`);
  const rows = await measure(
    base,
    `${base}/api/v1/templates/${args.template}`,
    { Authorization: `Bearer ${args.key}` },
    [],
  );
  console.log(
    tableOf(
      rows,
      `Against ${base}; ${connections} connections, ${duration} s per run, load generator on ${machine()}.`,
    ),
  );
  process.exit(0);
}

const rows: (Figures & { label: string })[] = [];
const bare = await start(['bench/bare-uws.cjs'], {}, /listening on (\d+)/);
const barePort = /listening on (\d+)/.exec(bare.out())![1];
rows.push(
  ...(await measure('bare uWS hello-world (ceiling)', `http://127.0.0.1:${barePort}/`, {}, [
    bare.child.pid!,
  ])),
);
bare.child.kill();

for (const [label, extra] of [
  // The default: on loopback, the transport alone, an access line for every request (batched).
  ['scriptorium, embedded default (loopback)', { LOG_LEVEL: 'info' }],
  ['scriptorium, embedded, access lines off (warn)', {}],
  // What a server listening where others connect (HOST=0.0.0.0) has in front by default.
  ['scriptorium, embedded, framing check on', { FRAMING_CHECK: 'true', LOG_LEVEL: 'info' }],
  [
    'scriptorium, Redis limits',
    {
      LOG_LEVEL: 'info',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `bench-${process.pid}:`,
    },
  ],
] as const) {
  if (!wanted(label)) continue;
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-'));
  const env = { DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '10000000', ...extra };
  const { key, template } = seedAccount(env, 'bench', 'src/app/demo/letter.template.json');
  const server = await serve(env, [], [], 'LOG_LEVEL' in extra ? 'ignore' : 'inherit');
  const port = server.port;
  rows.push(
    ...(await measure(
      label,
      `http://127.0.0.1:${port}/api/v1/templates/${template}`,
      { Authorization: `Bearer ${key}` },
      [server.child.pid!],
    )),
  );
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

// The farm behind its edge (HAProxy, `scriptorium edge`): one and two API processes without a
// framing check of their own, PostgreSQL, Redis limits, s3rver; access lines at info.
if (has('haproxy') && wanted('farm behind the edge')) {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-edge-'));
  const services = await farmServices(dir, {
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'info',
    FRAMING_CHECK: 'false',
    TRUSTED_PROXIES: '127.0.0.1',
  });
  const [user] = await services.seed(1, join(ROOT, 'src/app/demo/letter.template.json'), 'test');
  const apis = [await serve(services.env, [], ['--role', 'api'], 'ignore')];
  for (const count of [1, 2]) {
    if (apis.length < count) apis.push(await serve(services.env, [], ['--role', 'api'], 'ignore'));
    const config = join(dir, `edge-${count}.cfg`);
    writeFileSync(
      config,
      edgeFor(loadConfig({ ...process.env, ...services.env }), {
        host: '127.0.0.1',
        port: EDGE_PORT,
        apis: apis.map((a) => `127.0.0.1:${a.port}`),
      }),
    );
    const edge = spawn('haproxy', ['-db', '-f', config], {
      stdio: ['ignore', 'ignore', openSync(join(dir, 'edge.log'), 'w')],
    });
    // A benchmark that fails must not leave its edge running.
    const orphan = () => edge.kill('SIGKILL');
    process.once('exit', orphan);
    await until(() =>
      fetch(`http://127.0.0.1:${EDGE_PORT}/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    );
    const probe = await fetch(`http://127.0.0.1:${EDGE_PORT}/api/v1/templates/${user!.template}`, {
      headers: { Authorization: `Bearer ${user!.key}` },
    });
    if (probe.status !== 200) throw new Error(`through the edge: ${probe.status} ${await probe.text()}`);
    rows.push(
      ...(await measure(
        `farm behind the edge, ${count} API process${count > 1 ? 'es' : ''}`,
        `http://127.0.0.1:${EDGE_PORT}/api/v1/templates/${user!.template}`,
        { Authorization: `Bearer ${user!.key}` },
        [edge.pid!, ...apis.map((a) => a.child.pid!)],
      )),
    );
    edge.kill();
    await new Promise((r) => edge.once('exit', r));
    process.off('exit', orphan);
  }
  for (const a of apis) await a.stop();
  await services.close();
  rmSync(dir, { recursive: true, force: true });
}

const table = tableOf(
  rows,
  `${machine()}; ${connections} connections, ${duration} s per run, load generator on the same machine.`,
);
console.log(table);
if (args.write) record(ROOT, table);
