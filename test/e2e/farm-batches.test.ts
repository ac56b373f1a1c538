// A batch in a farm of real processes (PostgreSQL, Redis, S3): its rows spread over both workers,
// several rendering at once but never more than the account's share; another account's single
// job is not kept waiting behind it; a worker killed with -9 mid-batch loses no row and charges
// none twice; the merged PDF of 250 rows is whole.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { farmProcesses, farmServices, farmTenant } from '../helpers/farm.ts';
import { readChunked, slowGet } from '../helpers/raw-http.ts';
import { unavailable } from '../helpers/services.ts';
import type { ServeProcess } from '../helpers/spawn.ts';

const away = (await unavailable('postgres')) || (await unavailable('redis'));
if (away) {
  if (process.env.CI) throw new Error(`the farm batch test needs PostgreSQL and Redis: ${away}`);
  t.comment(`farm batches: skipped, ${away}`);
  process.exit(0);
}

const SHARE = 3;
const { env, ctx } = await farmServices(t, 'farmbatch', {
  RATE_LIMIT_PER_MINUTE: '100000',
  QUEUE_LOCK_MS: '3000',
  RECONCILE_INTERVAL_MS: '1000',
  PROBE_PORT: '0',
  POOL_THREADS: '2',
  BATCH_SHARE: String(SHARE),
  LOG_LEVEL: 'info',
});

const { start } = farmProcesses(t, env);

async function api(port: number, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it asked for
  return { status: res.status, body: (await res.json()) as any };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The job ids a worker's log says it started. */
const started = (p: ServeProcess) =>
  new Set(
    p
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"job started"'))
      .map((l) => (JSON.parse(l) as { job: string }).job),
  );

t.test(
  'rows spread over both workers, at most the share at once; a single job of another account gets through; kill -9 of a worker loses no row and charges none twice',
  async (t) => {
    const bulk = await farmTenant(ctx, 'Bulk sender');
    const other = await farmTenant(ctx, 'Small sender');
    const apiProcess = await start('api');
    const [w1, w2] = [await start('worker'), await start('worker')];
    const text = (i: number) => `Dear friend number ${i}, thank you for your kind letter. `.repeat(30);
    const post = await api(apiProcess.port, bulk.key, 'POST', '/batches', {
      templateId: bulk.template,
      rows: Array.from({ length: 24 }, (_, i) => ({ text: text(i) })),
      merge: true,
    });
    t.equal(post.status, 202, JSON.stringify(post.body));
    const batchId: string = post.body.id;

    // Watch the store: the most rows of the batch processing at once.
    let most = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const n = await ctx.store.db.kysely
          .selectFrom('generations')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('batch_id', '=', batchId)
          .where('status', '=', 'processing')
          .executeTakeFirst()
          .catch(() => null);
        if (!n) break;
        most = Math.max(most, Number(n.n));
        await sleep(15);
      }
    })();

    // Another account's single job, sent while the batch runs, ends long before the batch.
    const single = await api(apiProcess.port, other.key, 'POST', '/generations', {
      templateId: other.template,
      text: 'A short note.',
    });
    t.equal(single.status, 202);
    let singleDone = 0;
    for (let i = 0; i < 600; i++) {
      const j = await api(apiProcess.port, other.key, 'GET', `/generations/${single.body.id}`);
      if (j.body.status === 'completed') {
        singleDone = Date.now();
        break;
      }
      await sleep(50);
    }
    t.ok(singleDone > 0, "the other account's job completed");
    const meanwhile = await api(apiProcess.port, bulk.key, 'GET', `/batches/${batchId}`);
    t.not(meanwhile.body.status, 'completed', 'while the batch was still running');

    // Kill one worker while rows of the batch are processing.
    for (let i = 0; i < 400; i++) {
      const b = await api(apiProcess.port, bulk.key, 'GET', `/batches/${batchId}`);
      if (b.body.rows.processing > 0 && b.body.rows.completed >= 4) break;
      await sleep(25);
    }
    const before = await api(apiProcess.port, bulk.key, 'GET', `/batches/${batchId}`);
    t.ok(before.body.rows.completed < 24, `killed mid-batch (${before.body.rows.completed} of 24 done)`);
    const fromW1 = started(w1);
    await w1.stop('SIGKILL');

    let done = before.body;
    for (let i = 0; i < 1200 && done.status !== 'completed'; i++) {
      await sleep(100);
      done = (await api(apiProcess.port, bulk.key, 'GET', `/batches/${batchId}`)).body;
    }
    watching = false;
    await watcher;
    t.equal(done.status, 'completed', JSON.stringify(done.rows));
    t.same(
      done.rows,
      { total: 24, queued: 0, processing: 0, completed: 24, failed: 0, cancelled: 0 },
      'no row lost',
    );
    const rows = await ctx.store.db.kysely
      .selectFrom('generations')
      .select('id')
      .where('batch_id', '=', batchId)
      .execute();
    const ids = rows.map((r) => r.id);
    const charges = await ctx.store.db.kysely
      .selectFrom('ledger')
      .select(['job_id'])
      .where('job_id', 'in', ids)
      .where('kind', '=', 'charge')
      .execute();
    t.equal(charges.length, 24, 'each row charged');
    t.equal(new Set(charges.map((c) => c.job_id)).size, 24, 'none charged twice');
    t.equal(done.creditsSpent, done.pages, 'A5 pages at one sheet each');

    const fromW2 = started(w2);
    const mine = (s: Set<string>) => ids.filter((id) => s.has(id)).length;
    t.ok(
      mine(fromW1) > 0 && mine(fromW2) > 0,
      `rows ran on both workers (${mine(fromW1)} and ${mine(fromW2)})`,
    );
    t.ok(most >= 2, `several rows rendered at once (at most ${most})`);
    t.ok(most <= SHARE, `never more than the share of ${SHARE} (at most ${most})`);

    // The merged PDF, every row read back from S3 in row order.
    const merged = await fetch(`http://127.0.0.1:${apiProcess.port}/api/v1/batches/${batchId}/merged`, {
      headers: { authorization: `Bearer ${bulk.key}` },
    });
    t.equal(merged.status, 200);
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-farm-merged-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'merged.pdf');
    writeFileSync(file, Buffer.from(await merged.arrayBuffer()));
    execFileSync('qpdf', ['--check', file]);
    t.match(
      execFileSync('pdfinfo', [file], { encoding: 'utf8' }),
      new RegExp(`Pages:\\s+${done.pages}\\n`),
      `the merged PDF has every row's pages (${done.pages})`,
    );
    t.match(
      execFileSync('pdftotext', ['-l', '1', file, '-'], { encoding: 'utf8' }),
      /Dear friend number 0,/,
      'row 0 first',
    );

    // The merged PDF of 250 one-page rows, read back from S3 by the same processes: whole, its
    // chunked answer ended, the same bytes twice (it was once cut short in its cross-reference table).
    const sender = await farmTenant(ctx, 'Large batch sender');
    const large = await api(apiProcess.port, sender.key, 'POST', '/batches', {
      templateId: sender.template,
      rows: Array.from({ length: 250 }, (_, i) => ({
        text: `Dear friend ${i}, thank you for the lovely afternoon in the garden. It was a joy.`,
      })),
      merge: true,
    });
    t.equal(large.status, 202, JSON.stringify(large.body));
    let ended = large.body;
    for (let i = 0; i < 3000 && ended.status !== 'completed'; i++) {
      await sleep(100);
      ended = (await api(apiProcess.port, sender.key, 'GET', `/batches/${large.body.id}`)).body;
    }
    t.match(ended, { status: 'completed', rows: { completed: 250 } });
    const auth = { authorization: `Bearer ${sender.key}` };
    const first = readChunked(await slowGet(apiProcess.port, ended.mergedUrl, auth));
    t.match(first.head, /transfer-encoding: chunked/);
    t.ok(first.ended, 'the chunked answer ends with its last chunk');
    const large250 = join(dir, 'merged-250.pdf');
    writeFileSync(large250, first.body);
    execFileSync('qpdf', ['--check', large250]);
    t.match(execFileSync('pdfinfo', [large250], { encoding: 'utf8' }), /Pages:\s+250\n/);
    const again = await fetch(`http://127.0.0.1:${apiProcess.port}${ended.mergedUrl}`, { headers: auth });
    t.ok(
      Buffer.from(await again.arrayBuffer()).equals(first.body),
      `the same ${first.body.length} bytes again`,
    );
  },
);
