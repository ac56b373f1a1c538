// What only the piscina renderer has: worker threads, a task over its time or memory limit
// stopped and reported, and the pool serving the next task; sample sheets read in a process of
// their own that ends once idle (the port's contract: renderer.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Rendered, type RenderRequest, RenderTaskError } from '../../src/app/ports/renderer.ts';
import { PiscinaRenderer as RenderPool } from '../../workers/piscina-renderer.ts';
import { sheetLayout } from '../../src/foundry/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';
import { textSpec } from '../helpers/specs.ts';

const task = (text: string, limits: Partial<RenderRequest['limits']> = {}): RenderRequest => ({
  output: 'pdf',
  spec: textSpec({}, text),
  fonts: {},
  images: {},
  createdAt: '2026-11-22T00:00:00Z',
  limits: { maxPages: 200, maxBytes: 55_000_000, ...limits },
});
const LONG = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(1500);

t.test('tasks render in worker threads and return PDF bytes', async (t) => {
  const pool = new RenderPool({ threads: 2, timeoutMs: 60_000, memoryMb: 256 });
  t.teardown(() => pool.close());
  const results = await Promise.all([
    pool.run(task('Hello from a worker.')),
    pool.run(task('And another one.')),
  ]);
  for (const r of results) {
    t.equal(r.pages, 1);
    t.equal(Buffer.from(r.bytes.subarray(0, 5)).toString(), '%PDF-');
  }
  t.equal(pool.threads, 2);
  const capped = await pool.run(task(LONG, { maxPages: 3 })).catch((e: unknown) => e);
  t.ok(
    capped instanceof RenderTaskError &&
      capped.reason === 'render' &&
      /needs \d+ pages, the most allowed is 3/.test(capped.message),
    'the page cap is a render failure',
  );
});

t.test('a task past its time limit is stopped; the pool carries on', async (t) => {
  const pool = new RenderPool({ threads: 1, timeoutMs: 50, memoryMb: 256 });
  t.teardown(() => pool.close());
  const err = await pool.run(task(LONG)).catch((e: unknown) => e);
  t.ok(err instanceof RenderTaskError && err.reason === 'timeout', String(err));
  const slow = new RenderPool({ threads: 1, timeoutMs: 60_000, memoryMb: 256 });
  t.teardown(() => slow.close());
  t.equal((await slow.run(task('after'))).pages, 1);
  // The same pool recovers too, once its limit allows the work.
  await pool.run(task('x')).then(
    (r) => t.equal(r.pages, 1, 'the next small task succeeds on a fresh worker'),
    (e: unknown) =>
      t.ok(e instanceof RenderTaskError && e.reason === 'timeout', 'or is itself stopped, never hangs'),
  );
});

t.test('a task past its memory limit is stopped; the pool carries on', async (t) => {
  const pool = new RenderPool({
    threads: 1,
    timeoutMs: 60_000,
    memoryMb: 48,
    onWorkerError: (e) => t.comment(`worker error: ${e.message}`),
  });
  t.teardown(() => pool.close());
  // Far past the limit at once: a task that only just exceeds it can spend a minute in V8's last GCs.
  const err = await pool
    .run(task(LONG.repeat(40), { maxPages: 100_000, maxBytes: 1e9 }))
    .catch((e: unknown) => e);
  t.ok(err instanceof RenderTaskError && (err.reason === 'memory' || err.reason === 'crash'), String(err));
  t.equal((await pool.run(task('small'))).pages, 1, 'a fresh worker serves the next task');
});

t.test('a replacement worker that dies while starting does not leave tasks waiting', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-pool-'));
  const counter = join(dir, 'count');
  writeFileSync(counter, '0');
  // Workers take their environment from the process when they start.
  process.env.FLAKY_COUNTER = counter;
  process.env.FLAKY_FAIL_AT = '2';
  const errors: string[] = [];
  const pool = new RenderPool({
    threads: 1,
    timeoutMs: 20_000,
    memoryMb: 256,
    filename: new URL('../fixtures/flaky-worker.mjs', import.meta.url).href,
    onWorkerError: (e) => errors.push(e.message),
  });
  t.teardown(async () => {
    await pool.close();
    delete process.env.FLAKY_COUNTER;
    delete process.env.FLAKY_FAIL_AT;
    rmSync(dir, { recursive: true, force: true });
  });
  const first = await pool.run({ exit: true } as unknown as RenderRequest).catch((e: unknown) => e);
  t.ok(
    first instanceof RenderTaskError && first.reason === 'crash',
    `the first task ends its worker: ${first}`,
  );
  // Queued at once, while worker 2 starts and dies: without the watchdog it would wait until its
  // time limit.
  const next = await pool.run({} as RenderRequest).catch((e: unknown) => e);
  t.equal((next as Rendered).pages, 1, `the next task runs on a fresh pool: ${next}`);
  t.ok((next as Rendered & { worker: number }).worker >= 3, 'on a worker started after the one that failed');
  t.match(errors.join('\n'), /worker 2 fails while starting/, 'the failed start is reported');
  t.match(errors.join('\n'), /replaced/, 'and the replacement of the pool');
});

t.test(
  'tasks wait for a thread in arrival order; the time limit starts when a thread takes them',
  async (t) => {
    const pool = new RenderPool({
      threads: 1,
      timeoutMs: 2500,
      memoryMb: 256,
      filename: new URL('../fixtures/sleepy-worker.mjs', import.meta.url).href,
    });
    t.teardown(() => pool.close());
    const nap = (sleepMs: number) => ({ sleepMs }) as unknown as RenderRequest;
    await pool.run(nap(0), { timeoutMs: 60_000 }); // the thread is up (its start is no part of the limit tested)
    const order: number[] = [];
    const cancel = new AbortController();
    const runs = [0, 1, 2, 3, 4].map((i) =>
      pool.run(nap(900), i === 2 ? { signal: cancel.signal } : {}).then(
        () => order.push(i),
        (e: unknown) => e,
      ),
    );
    cancel.abort(); // the third is still waiting: it never takes the thread
    const results = await Promise.all(runs);
    const dropped = results[2];
    t.ok(
      dropped instanceof RenderTaskError && dropped.reason === 'cancelled',
      'a task cancelled while waiting',
    );
    t.same(order, [0, 1, 3, 4], 'the others ran, in arrival order');
    t.pass(
      'the last waited 2.7 s behind the others, past its 2.5 s limit, and still had its whole limit to run',
    );
  },
);

t.test(
  'sample sheets are read in a process of their own: stopped past its time limit, ended once idle',
  async (t) => {
    const pool = new RenderPool({ threads: 1, timeoutMs: 60_000, memoryMb: 512, handIdleMs: 300 });
    t.teardown(() => pool.close());
    /** The processes this one started, as /proc lists them. */
    const children = () =>
      readdirSync('/proc/self/task').flatMap((task) =>
        readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean),
      );
    const before = children();
    const [page1] = await sheetPhotos(sheetLayout('basic', 'a4'), bundledFontSource('kalam'), 1);
    const task = { preview: true, name: 'Idle hand', scans: [page1!], createdAt: '2026-11-27T00:00:00Z' };
    const late = await pool.buildHand(task, { timeoutMs: 20 }).catch((e: unknown) => e);
    t.ok(late instanceof RenderTaskError && late.reason === 'timeout', `past its limit: ${late}`);
    const read = await pool.buildHand(task);
    t.ok(read.ok, 'the next one is read, by a fresh process');
    t.equal(children().length, before.length + 1, 'by a process of its own');
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      await new Promise((r) => setTimeout(r, 100));
      gone = children().length === before.length;
    }
    t.ok(gone, 'which ends once it has been idle, and its memory with it');
    const again = await pool.buildHand(task);
    t.ok(again.ok, 'and a picture given later starts one again');
  },
);
