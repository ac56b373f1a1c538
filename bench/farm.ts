// The farm against the embedded single process on the same work: jobs/s and pages/s.
// Farm: 2 API and 2 worker processes (2 render threads each) on PostgreSQL, Redis and S3
// (s3rver on this machine). Embedded: one `scriptorium serve` with 2 render threads. The work:
// 10 accounts, each posting 4 jobs one after another (post, poll every 50 ms, next), all
// accounts at once; each job a 10-page A5 letter.
//
//   node --import tsx bench/farm.ts [--write]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';
import { createAccount, createKey, importTemplate } from '../src/app/admin.ts';
import { openContext } from '../src/composition.ts';
import { loadConfig } from '../src/config/index.ts';
import { prose } from './prose.ts';
import { machine, ROOT, type Served, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
const ACCOUNTS = 10;
const JOBS_PER_ACCOUNT = 4;
const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-farm-'));
const templateFile = join(dir, 'letter.template.json');
writeFileSync(
  templateFile,
  JSON.stringify({
    version: 2,
    name: 'Bench letter',
    mode: 'simple',
    style: { fontId: 'font_76FIvrxbMWVVj6WyJCWgxI', pageSize: 'A5' },
  }),
);
const text = prose(7_000, 5); // about 10 A5 pages

interface Figures {
  jobs: number;
  pages: number;
  seconds: number;
}

async function drive(ports: number[], users: { key: string; template: string }[]): Promise<Figures> {
  let pages = 0;
  let jobs = 0;
  const t0 = performance.now();
  await Promise.all(
    users.map(async (u, i) => {
      for (let n = 0; n < JOBS_PER_ACCOUNT; n++) {
        const base = `http://127.0.0.1:${ports[(i + n) % ports.length]}/api/v1`;
        const headers = { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' };
        const post = await fetch(`${base}/generations`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ templateId: u.template, text }),
        });
        if (post.status !== 202) throw new Error(`POST: ${post.status} ${await post.text()}`);
        const { id } = (await post.json()) as { id: string };
        const give = Date.now() + 120_000;
        for (;;) {
          if (Date.now() > give) throw new Error(`job ${id} did not finish in 2 minutes`);
          const job = (await (await fetch(`${base}/generations/${id}`, { headers })).json()) as {
            status: string;
            pages?: number;
            error?: unknown;
          };
          if (job.status === 'completed') {
            pages += job.pages!;
            jobs++;
            break;
          }
          if (job.status !== 'queued' && job.status !== 'processing')
            throw new Error(`job ${id}: ${job.status} ${JSON.stringify(job.error)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  return { jobs, pages, seconds: (performance.now() - t0) / 1000 };
}

const common = { RATE_LIMIT_PER_MINUTE: '10000000', POOL_THREADS: '2' };
const seed = (env: NodeJS.ProcessEnv) =>
  Array.from({ length: ACCOUNTS }, (_, i) => seedAccount(env, `bench ${i}`, templateFile, { mode: 'live' }));

// Embedded: one process.
const embeddedEnv = { ...common, DATA_DIR: join(dir, 'embedded') };
const embeddedUsers = seed(embeddedEnv);
const single = await serve(embeddedEnv);
await drive([single.port], embeddedUsers.slice(0, 2)); // warm-up, not recorded
const embedded = await drive([single.port], embeddedUsers);
await single.stop();
console.error(`embedded: ${embedded.jobs} jobs in ${embedded.seconds.toFixed(1)} s`);

// Farm: its own database, Redis prefix and bucket.
const dbName = `scriptorium_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_ADMIN });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(PG_ADMIN);
dbUrl.pathname = `/${dbName}`;
const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
const { port: s3Port } = await s3.run();
const prefix = `bench-farm-${process.pid}:`;
const farmEnv = {
  ...common,
  DATA_DIR: join(dir, 'farm'),
  PROBE_PORT: '0', // two workers on one machine: each takes a free port
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL,
  REDIS_PREFIX: prefix,
  S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  S3_ACCESS_KEY: 'S3RVER',
  S3_SECRET_KEY: 'S3RVER',
};
// In process, not through the CLI: s3rver runs in this process and a blocking child would
// leave it unable to answer.
const ctx = await openContext(loadConfig({ ...process.env, ...farmEnv }, { logLevel: 'silent' }));
const farmUsers = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const account = await createAccount(ctx, { name: `bench ${i}`, plan: 'pro', period: 30 });
  const { key } = await createKey(ctx, { account: account.id, mode: 'live' });
  const tpl = await importTemplate(ctx, {
    account: account.id,
    mode: 'live',
    json: readFileSync(templateFile, 'utf8'),
    source: 'bench',
  });
  farmUsers.push({ key, template: tpl.id });
}
await ctx.close();
console.error('farm: accounts ready');
const processes: Served[] = [];
for (const role of ['api', 'api', 'worker', 'worker'])
  processes.push(await serve(farmEnv, [], ['--role', role]));
const apiPorts = processes.filter((p) => p.port > 0).map((p) => p.port);
console.error(`farm: processes ready, API ports ${apiPorts.join(', ')}`);
await drive(apiPorts, farmUsers.slice(0, 2)); // warm-up
const farm = await drive(apiPorts, farmUsers);
console.error(`farm: ${farm.jobs} jobs in ${farm.seconds.toFixed(1)} s`);
for (const p of processes) await p.stop();
await s3.close();
await admin.query(`drop database if exists ${dbName} with (force)`);
await admin.end();
const redis = new Redis(REDIS_URL);
const keys = await redis.keys(`${prefix}*`);
if (keys.length) await redis.del(...keys);
await redis.quit();
rmSync(dir, { recursive: true, force: true });

const row = (name: string, f: Figures) =>
  `| ${name} | ${f.jobs} | ${f.pages} | ${f.seconds.toFixed(1)} s | ${(f.jobs / f.seconds).toFixed(2)} | ${(f.pages / f.seconds).toFixed(0)} |`;
const table = [
  `### Farm against embedded, ${new Date().toISOString().slice(0, 10)} (bench/farm.ts)`,
  '',
  `${machine()}; the same work on both: ${ACCOUNTS} accounts at once, each posting ${JOBS_PER_ACCOUNT} jobs one after another (polling every 50 ms), each job an A5 letter of ${text.length.toLocaleString('en-US')} characters; after a warm-up. Farm: 2 API and 2 worker processes with 2 render threads each, PostgreSQL, Redis and s3rver on this machine. Embedded: one process, 2 render threads.`,
  '',
  '| setup | jobs | pages | wall time | jobs/s | pages/s |',
  '|---|---:|---:|---:|---:|---:|',
  row('embedded, 1 process', embedded),
  row('farm, 2 API + 2 workers', farm),
  '',
].join('\n');
console.log(table);
if (args.write) record(ROOT, table);
