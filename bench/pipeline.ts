// The request pipeline without a network: the service's `api.handle` called in process for an
// authenticated `GET /api/v1/templates/{id}` (key check, per-key rate limit, request counting,
// template read, counters, access line), then the reply's body and headers made as the transport
// would. Its per-request cost in microseconds is the part of bench/http.ts that is the project's own
// code, measured without the load tool competing for the CPU.
//
//   node --import tsx bench/pipeline.ts [--requests 200000] [--rounds 5] [--write]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createAccount, createKey, importTemplate } from '../src/app/admin.ts';
import { openContext } from '../src/composition.ts';
import { loadConfig } from '../src/config/index.ts';
import type { ApiRequest } from '../src/api/types.ts';
import { newId } from '../src/lib/ids.ts';
import { logDestination, startService } from '../src/service.ts';
import { InProcessRenderer } from '../workers/in-process-renderer.ts';
import { record } from './record.ts';
import { machine, ROOT } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '5' },
    write: { type: 'boolean', default: false },
  },
});
const requests = Number(args.requests);
const rounds = Number(args.rounds);

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-pipeline-'));
const config = loadConfig({}, { dataDir: dir, demo: false, rateLimitPerMinute: 100_000_000 });
const ctx = await openContext(config);
const account = await createAccount(ctx, { name: 'Bench', plan: 'pro', period: 30 });
const { key } = await createKey(ctx, { account: account.id, mode: 'test' });
const template = await importTemplate(ctx, {
  account: account.id,
  mode: 'test',
  json: readFileSync(join(ROOT, 'src/app/demo/letter.template.json'), 'utf8'),
  source: 'bench',
});
// Access lines at info, as by default, written to a sink: the work of making each line counts, the
// terminal's does not.
const log = pino({ level: 'info' }, logDestination('/dev/null'));
const service = await startService(ctx, { log, renderer: new InProcessRenderer(), listen: false });

const path = `/api/v1/templates/${template.id}`;
const request = (): ApiRequest => ({
  id: newId('req'),
  peer: () => '127.0.0.1',
  method: 'GET',
  path,
  query: '',
  headers: { host: 'bench', authorization: `Bearer ${key}` },
  receivedAt: new Date(),
  body: Buffer.alloc(0),
});

/** Answers `n` requests, 50 at a time (as many as the HTTP benchmark's connections). */
async function run(n: number): Promise<number> {
  const started = process.hrtime.bigint();
  let sent = 0;
  const lane = async () => {
    while (sent < n) {
      sent++;
      const reply = await service.api.handle(request());
      if (reply.status !== 200) throw new Error(`answered ${reply.status}: ${JSON.stringify(reply.json)}`);
      const body = reply.raw?.bytes ?? JSON.stringify(reply.json);
      for (const [k, v] of Object.entries(reply.headers ?? {})) if (!k || !v) throw new Error('empty header');
      if (body.length === 0) throw new Error('empty body');
    }
  };
  await Promise.all(Array.from({ length: 50 }, lane));
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

await run(Math.min(requests, 20_000)); // warm-up: JIT and caches, not recorded
const figures: number[] = [];
for (let i = 0; i < rounds; i++) {
  figures.push(await run(requests));
  console.error(`round ${i + 1}: ${figures.at(-1)!.toFixed(2)} µs a request`);
}
await service.stop(1000);
rmSync(dir, { recursive: true, force: true });

const sorted = [...figures].sort((a, b) => a - b);
const table = [
  `### Request pipeline in process, ${new Date().toISOString().slice(0, 10)} (bench/pipeline.ts)`,
  '',
  `${machine()}; ${rounds} rounds of ${requests.toLocaleString('en-US')} authenticated \`GET /api/v1/templates/{id}\`, 50 at a time, access lines at info.`,
  '',
  '| best µs a request | median µs a request | requests a second of one core (best) |',
  '|---:|---:|---:|',
  `| ${sorted[0]!.toFixed(2)} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} | ${Math.round(1e6 / sorted[0]!).toLocaleString('en-US')} |`,
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
