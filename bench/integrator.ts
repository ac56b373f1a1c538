// What the integrator kit costs and how soon it speaks, against a live `scriptorium serve`
// (embedded mode): a POST /generations replayed under one Idempotency-Key (autocannon; every
// answer after the first is the kept one) next to GET /generations/{id} on the same server; and
// how long after a job completes its webhook arrives at a receiver on the same box.
//
//   node --import tsx bench/integrator.ts [--duration 10] [--connections 20] [--jobs 20] [--write]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { record } from './record.ts';
import { cli, machine, ROOT, seedAccount, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    jobs: { type: 'string', default: '20' },
    write: { type: 'boolean', default: false },
  },
});

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-integrator-'));
const env = {
  DATA_DIR: dir,
  RATE_LIMIT_PER_MINUTE: '10000000',
  WEBHOOK_POLL_MS: '1000',
  LOG_LEVEL: 'warn',
};
const user = seedAccount(env, 'bench', join(ROOT, 'src/app/demo/letter.template.json'));
cli(env, 'admin', 'topup', '--account', user.account, '--sheets', '1000', '--mode', 'test');

// The receiver notes when each event arrived.
const arrived = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { data: { generation: { id: string } } };
    arrived.set(event.data.generation.id, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
cli(env, 'admin', 'webhook', 'add', '--account', user.account, '--url', hookUrl, '--mode', 'test');

const server = await serve(env);
const base = `http://127.0.0.1:${server.port}/api/v1`;
const headers = { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' };
const body = JSON.stringify({ templateId: user.template, text: 'Dear friend, a short letter.' });

function load(opts: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string }) {
  return new Promise<{ rps: number; p50: number; p99: number; non2xx: number }>((resolve, reject) => {
    autocannon(
      { ...opts, connections: Number(args.connections), duration: Number(args.duration) },
      (err, r) => {
        if (err) return reject(err);
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
      },
    );
  });
}

try {
  const first = await fetch(`${base}/generations`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': 'bench-replay' },
    body,
  });
  const job = ((await first.json()) as { id: string }).id;
  const replay = await load({
    method: 'POST',
    url: `${base}/generations`,
    headers: { ...headers, 'idempotency-key': 'bench-replay' },
    body,
  });
  const read = await load({ method: 'GET', url: `${base}/generations/${job}`, headers });
  if (replay.non2xx || read.non2xx) throw new Error(`errors under load: ${replay.non2xx} + ${read.non2xx}`);

  // Webhook latency: one job at a time, from its completedAt to its arrival at the receiver.
  const lags: number[] = [];
  for (let i = 0; i < Number(args.jobs); i++) {
    const r = await fetch(`${base}/generations`, { method: 'POST', headers, body });
    const id = ((await r.json()) as { id: string }).id;
    let done: { status: string; completedAt?: string } = { status: 'queued' };
    while (done.status === 'queued' || done.status === 'processing' || !arrived.has(id)) {
      await new Promise((r) => setTimeout(r, 20));
      done = (await (await fetch(`${base}/generations/${id}`, { headers })).json()) as typeof done;
    }
    lags.push(arrived.get(id)! - Date.parse(done.completedAt!));
  }
  lags.sort((a, b) => a - b);
  const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))]!;

  const table = `### Integrator kit, ${new Date().toISOString().slice(0, 10)} (bench/integrator.ts)

${machine()}; embedded mode, one server; autocannon ${args.connections} connections for ${args.duration} s.

| case | requests/s | p50 ms | p99 ms |
|---|---:|---:|---:|
| POST /generations replayed under one Idempotency-Key | ${Math.round(replay.rps)} | ${replay.p50} | ${replay.p99} |
| GET /generations/{id} (the same server, for scale) | ${Math.round(read.rps)} | ${read.p50} | ${read.p99} |

| webhook, ${lags.length} jobs one at a time | p50 ms | p95 ms | max ms |
|---|---:|---:|---:|
| job completedAt → event at a receiver on the box | ${pct(50)} | ${pct(95)} | ${lags.at(-1)} |
`;
  console.log(table);
  if (args.write) record(ROOT, table);
} finally {
  await server.stop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
