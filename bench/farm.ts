// The farm against the embedded single process on the same work: jobs/s and pages/s.
// Farm: 2 API and 2 worker processes (2 render threads each) on PostgreSQL, Redis and S3
// (s3rver on this machine). Embedded: one `scriptorium serve` with 2 render threads. The work:
// 10 accounts, each posting 4 jobs one after another (post, poll every 50 ms, next), all
// accounts at once; each job a 10-page A5 letter.
//
//   node --import tsx bench/farm.ts [--write]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prose } from './prose.ts';
import { farmServices, machine, ROOT, type Served, seedAccount, serve } from './serve.ts';
import { record } from './record.ts';

const { values: args } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
const ACCOUNTS = 10;
const JOBS_PER_ACCOUNT = 4;

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
const services = await farmServices(dir, common);
const farmEnv = services.env;
const farmUsers = await services.seed(ACCOUNTS, templateFile);
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
await services.close();
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
