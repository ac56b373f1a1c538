// Nothing lost (DESIGN §7, §9): the real server killed with SIGKILL while a job is rendering,
// after its PDF is written, and after the completion commit; restarted, every job completes,
// is charged once, and the sweeper leaves exactly one stored PDF.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DEFAULT_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';
import { startServe } from '../helpers/spawn.ts';

const TEXT = 'A letter written across a crash, and finished all the same. '.repeat(1_500);

async function api(port: number, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it asked for
  return { status: res.status, body: (await res.json()) as any };
}

async function waitFor<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const point of ['while rendering', 'after-blob', 'after-commit'] as const) {
  t.test(
    `kill -9 ${point === 'while rendering' ? point : `at ${point}`}: after a restart the job is completed, charged once, one PDF kept`,
    async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'scriptorium-crash-'));
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      // Polling would spend the default 10 requests a minute of the key.
      const env = { DATA_DIR: dir, SWEEP_INTERVAL_MS: '1000', RATE_LIMIT_PER_MINUTE: '100000' };
      const first = await startServe({ ...env, ...(point === 'while rendering' ? {} : { CRASH_AT: point }) });
      const key = /API key\s+(hw_test_\S+)/.exec(first.stdout())![1]!;
      const template = /template\s+(tpl_\S+)\s+simple/.exec(first.stdout())![1]!;
      const post = await api(first.port, key, 'POST', '/generations', { templateId: template, text: TEXT });
      t.equal(post.status, 202);
      const id: string = post.body.id;
      if (point === 'while rendering') {
        await waitFor(
          () => api(first.port, key, 'GET', `/generations/${id}`),
          (r) => r.body.status === 'processing',
        );
        first.child.kill('SIGKILL');
      }
      await new Promise<void>((resolve) =>
        first.child.exitCode !== null || first.child.signalCode !== null
          ? resolve()
          : first.child.once('exit', () => resolve()),
      );
      t.equal(first.child.signalCode, 'SIGKILL', 'the server was killed');

      const store = await Store.open({ dialect: 'sqlite', file: join(dir, 'scriptorium.db') }, DEFAULT_PLANS);
      const atCrash = (await store.generations.find(id))!;
      t.equal(
        atCrash.status,
        point === 'after-commit' ? 'completed' : 'processing',
        `at the crash the job was ${atCrash.status}`,
      );
      await store.close();

      const second = await startServe(env);
      t.teardown(() => second.stop());
      const done = await waitFor(
        () => api(second.port, key, 'GET', `/generations/${id}`),
        (r) => r.body.status === 'completed',
      );
      t.equal(done.body.status, 'completed', 'completed after the restart');
      const pdf = await fetch(`http://127.0.0.1:${second.port}${done.body.downloadUrl}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      t.equal(pdf.status, 200);
      t.equal(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );

      const check = await Store.open({ dialect: 'sqlite', file: join(dir, 'scriptorium.db') }, DEFAULT_PLANS);
      t.teardown(() => check.close());
      const charges = await check.db.kysely
        .selectFrom('ledger')
        .selectAll()
        .where('job_id', '=', id)
        .execute();
      t.equal(charges.length, 1, 'charged once');
      t.equal(Number(charges[0]!.total_milli), done.body.pages * 1500, 'for the whole document');
      const job = (await check.generations.find(id))!;
      t.equal(
        job.attempt,
        point === 'after-commit' ? 1 : 2,
        point === 'after-commit' ? 'not run again' : 'run again as attempt 2',
      );
      const { FsBlobStore } = await import('../../src/blobs/fs-blob-store.ts');
      const blobs = new FsBlobStore(join(dir, 'blobs'));
      const kept = await waitFor(
        async () => {
          const keys: string[] = [];
          for await (const k of blobs.list('outputs')) keys.push(k);
          return keys;
        },
        (keys) => keys.length === 1,
        10_000,
      );
      t.same(kept, [job.blobKey], 'exactly the committed PDF is kept (the sweeper removed the rest)');
      t.equal(await second.stop(), 0);
    },
  );
}

t.test(
  'kill -9 mid-batch: after a restart the batch resumes, every row completed and charged once',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-crash-batch-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DATA_DIR: dir, SWEEP_INTERVAL_MS: '1000', RATE_LIMIT_PER_MINUTE: '100000' };
    const first = await startServe(env);
    const key = /API key\s+(hw_test_\S+)/.exec(first.stdout())![1]!;
    const template = /template\s+(tpl_\S+)\s+simple/.exec(first.stdout())![1]!;
    const rows = Array.from({ length: 8 }, (_, i) => ({
      text: `Row ${i}: ${'a letter of a few lines. '.repeat(60)}`,
    }));
    const post = await api(first.port, key, 'POST', '/batches', { templateId: template, rows });
    t.equal(post.status, 202);
    const id: string = post.body.id;
    const mid = await waitFor(
      () => api(first.port, key, 'GET', `/batches/${id}`),
      (r) => r.body.rows.completed >= 2 && r.body.rows.processing > 0,
    );
    t.ok(mid.body.rows.completed < 8, `killed with ${mid.body.rows.completed} of 8 rows done`);
    first.child.kill('SIGKILL');
    await new Promise<void>((resolve) => first.child.once('exit', () => resolve()));

    const second = await startServe(env);
    t.teardown(() => second.stop());
    const done = await waitFor(
      () => api(second.port, key, 'GET', `/batches/${id}`),
      (r) => r.body.status === 'completed',
      120_000,
    );
    t.equal(done.body.status, 'completed', 'the batch resumed and completed');
    t.equal(done.body.rows.completed, 8, 'no row lost');
    const check = await Store.open({ dialect: 'sqlite', file: join(dir, 'scriptorium.db') }, DEFAULT_PLANS);
    t.teardown(() => check.close());
    const jobs = await check.db.kysely
      .selectFrom('generations')
      .select('id')
      .where('batch_id', '=', id)
      .execute();
    const charges = await check.db.kysely
      .selectFrom('ledger')
      .select('job_id')
      .where(
        'job_id',
        'in',
        jobs.map((j) => j.id),
      )
      .execute();
    t.equal(charges.length, 8, 'eight charges');
    t.equal(new Set(charges.map((c) => c.job_id)).size, 8, 'one a row: none charged twice');
    t.equal(await second.stop(), 0);
  },
);
