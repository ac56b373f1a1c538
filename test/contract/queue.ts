// One contract for both job queue adapters (in process, BullMQ on Redis): a function of a
// factory that builds a queue around a runner.
import type { Test } from 'tap';
import type { JobQueue, JobRunner } from '../../src/queue/types.ts';

export type QueueFactory = (run: JobRunner, concurrency: number) => Promise<JobQueue>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(20);
  return cond();
}

export function queueContract(t: Test, name: string, make: QueueFactory): void {
  t.test(`${name}: held() names the jobs waiting or running, and none once they are done`, async (t) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const done: string[] = [];
    const q = await make(async (job) => {
      await gate;
      done.push(job.id);
    }, 1);
    t.teardown(() => q.stop(1000));
    const jobs = [`gen_${name}_held_a`, `gen_${name}_held_b`].map((id) => ({ id, accountId: 'acc_held' }));
    for (const j of jobs) q.enqueue(j);
    await sleep(200);
    t.same([...(await q.held())].sort(), jobs.map((j) => j.id).sort(), 'one running, one waiting: both held');
    release();
    t.ok(await until(() => done.length === 2), 'both ran');
    await sleep(300);
    t.same([...(await q.held())], [], 'nothing held once done');
  });

  t.test(`${name}: every job runs once, at most one per account, within the concurrency`, async (t) => {
    const runs: string[] = [];
    let active = 0;
    let most = 0;
    const perAccount = new Map<string, number>();
    let overlap = false;
    const q = await make(async (job) => {
      active++;
      most = Math.max(most, active);
      const n = (perAccount.get(job.accountId) ?? 0) + 1;
      perAccount.set(job.accountId, n);
      if (n > 1) overlap = true;
      await sleep(30);
      runs.push(job.id);
      perAccount.set(job.accountId, n - 1);
      active--;
    }, 2);
    t.teardown(() => q.stop(1000));
    const jobs = Array.from({ length: 12 }, (_, i) => ({
      id: `gen_${name}_${i}`,
      accountId: `acc_${i % 3}`,
    }));
    for (const j of jobs) q.enqueue(j);
    q.enqueue(jobs[0]!); // a job already queued is not added twice
    t.ok(await until(() => runs.length >= 12), `all ran (${runs.length})`);
    await sleep(300);
    t.same([...runs].sort(), jobs.map((j) => j.id).sort(), 'each exactly once');
    t.notOk(overlap, 'never two jobs of one account at once');
    t.ok(most <= 2, `never more than the concurrency (${most})`);
  });

  t.test(
    `${name}: an account's batch rows run up to their share at once, beside its single job`,
    async (t) => {
      const running = new Map<string, number>();
      const most = new Map<string, number>();
      const runs: string[] = [];
      const q = await make(async (job) => {
        const lane = job.batch ? 'batch' : 'single';
        running.set(lane, (running.get(lane) ?? 0) + 1);
        most.set(lane, Math.max(most.get(lane) ?? 0, running.get(lane)!));
        await sleep(150);
        running.set(lane, running.get(lane)! - 1);
        runs.push(job.id);
      }, 4);
      t.teardown(() => q.stop(1000));
      const rows = Array.from({ length: 6 }, (_, i) => ({
        id: `gen_${name}_row_${i}`,
        accountId: 'acc_lanes',
        batch: { id: 'bat_lanes', share: 2 },
      }));
      const singles = [0, 1].map((i) => ({ id: `gen_${name}_single_${i}`, accountId: 'acc_lanes' }));
      for (const j of [...rows, ...singles]) q.enqueue(j);
      t.ok(await until(() => runs.length === 8), `all ran (${runs.length})`);
      t.equal(most.get('batch'), 2, 'two rows of the batch at once: its share, never more');
      t.equal(most.get('single'), 1, 'the single jobs one at a time, beside the rows');
      t.ok(
        runs.indexOf(singles[0]!.id) < runs.indexOf(rows[5]!.id),
        'the single job did not wait for every row before it',
      );
    },
  );

  t.test(`${name}: abort takes a waiting job out and stops a running one`, async (t) => {
    const started: string[] = [];
    const aborted: string[] = [];
    const q = await make(
      (job, signal) =>
        new Promise<void>((resolve) => {
          started.push(job.id);
          const timer = setTimeout(resolve, 10_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            aborted.push(job.id);
            resolve();
          });
        }),
      1,
    );
    t.teardown(() => q.stop(1000));
    q.enqueue({ id: `gen_${name}_run`, accountId: 'acc_a' });
    t.ok(await until(() => started.length === 1), 'the first job runs');
    q.enqueue({ id: `gen_${name}_wait`, accountId: 'acc_b' });
    await sleep(200);
    q.abort(`gen_${name}_wait`);
    q.abort(`gen_${name}_run`);
    t.ok(await until(() => aborted.length === 1), 'the running job was told to stop');
    await sleep(800);
    t.same(started, [`gen_${name}_run`], 'the aborted waiting job never ran');
  });

  t.test(`${name}: stop lets running jobs finish within the grace period`, async (t) => {
    let finished = 0;
    let started = 0;
    const q = await make(async () => {
      started++;
      await sleep(400);
      finished++;
    }, 2);
    q.enqueue({ id: `gen_${name}_s1`, accountId: 'acc_1' });
    q.enqueue({ id: `gen_${name}_s2`, accountId: 'acc_2' });
    t.ok(await until(() => started === 2), 'both started');
    await q.stop(5000);
    t.equal(finished, 2, 'both finished before stop returned');
  });

  t.test(`${name}: a run that rejects is run again after a back-off, and held meanwhile`, async (t) => {
    const runs: number[] = [];
    let heldWhileBackingOff = false;
    let q!: JobQueue;
    const id = `gen_${name}_retry`;
    q = await make(async () => {
      runs.push(Date.now());
      if (runs.length <= 3) {
        // The queue answers held() while the job waits out its back-off.
        setTimeout(() => void q.held().then((h) => (heldWhileBackingOff ||= h.has(id))), 20);
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      }
    }, 1);
    t.teardown(() => q.stop(1000));
    q.enqueue({ id, accountId: 'acc_retry' });
    t.ok(await until(() => runs.length === 4), 'run again until it succeeded: 4 runs');
    await sleep(600);
    t.equal(runs.length, 4, 'and not after');
    t.ok(heldWhileBackingOff, 'held while backing off');
    const gaps = runs.slice(1).map((at, i) => at - runs[i]!);
    t.ok(gaps[2]! >= gaps[0]!, `the back-off does not shrink: ${gaps.join(', ')} ms between runs`);
    t.same([...(await q.held())], [], 'nothing held once done');
  });

  t.test(`${name}: an aborted job waiting out its back-off is not run again`, async (t) => {
    let runs = 0;
    const q = await make(async () => {
      runs++;
      throw new Error('store unreachable');
    }, 1);
    t.teardown(() => q.stop(1000));
    const id = `gen_${name}_retry_abort`;
    q.enqueue({ id, accountId: 'acc_retry_abort' });
    t.ok(await until(() => runs === 1), 'ran once');
    await sleep(10);
    q.abort(id);
    await sleep(1000);
    t.equal(runs, 1, 'not run again after abort');
  });

  t.test(
    `${name}: waits() says why a held job does not run: its account's job, or a retry's back-off`,
    async (t) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let faults = 0;
      let retryingSeen = 0;
      // The failing job rejects six times, and on until stats() has counted it waiting out a
      // back-off: stats() is a snapshot the queue refreshes on its own beat (a second), which a
      // loaded machine can let fall between the back-offs (50 to 400 ms here).
      const q = await make(async (job) => {
        if (job.id.endsWith('_first')) await gate;
        if (job.id.endsWith('_failing') && (faults < 6 || retryingSeen === 0)) {
          faults++;
          throw new Error('store unreachable');
        }
      }, 2);
      t.teardown(() => q.stop(1000));
      const first = `gen_${name}_waits_first`;
      const second = `gen_${name}_waits_second`;
      const failing = `gen_${name}_waits_failing`;
      q.enqueue({ id: first, accountId: 'acc_waits' });
      await sleep(100);
      q.enqueue({ id: second, accountId: 'acc_waits' });
      q.enqueue({ id: failing, accountId: 'acc_waits_other' });
      const seen: { id: string; reason: string; faults: number; ahead: number }[] = [];
      const end = Date.now() + 20_000;
      while (Date.now() < end && !(faults >= 6 && retryingSeen > 0 && seen.some((s) => s.id === second))) {
        const now = Date.now();
        for (const [id, w] of await q.waits([first, second, failing]))
          seen.push({
            id,
            reason: w.reason,
            faults: w.faults,
            ahead: w.until ? w.until.getTime() - now : -1,
          });
        retryingSeen = Math.max(retryingSeen, q.stats().retrying);
        await sleep(15);
      }
      t.notOk(
        seen.some((s) => s.id === first),
        'the running job has no wait',
      );
      t.ok(
        seen.some((s) => s.id === second && s.reason === 'account' && s.faults === 0),
        `the second job of an account waits for its account: ${JSON.stringify(seen.find((s) => s.id === second))}`,
      );
      const retries = seen.filter((s) => s.id === failing && s.reason === 'retry');
      t.ok(retries.length > 0, 'the failing job waits out its back-off');
      t.ok(
        retries.every((s) => s.faults >= 1 && s.faults <= faults && s.ahead > -1000 && s.ahead <= 450),
        `for the retry after its faults, due within its back-off: ${JSON.stringify(retries.slice(-3))}`,
      );
      t.ok(
        retries.some((s) => s.faults >= 3),
        'the count of faults grows with each failed run',
      );
      release();
      const faulted = faults;
      await sleep(700);
      t.ok(faulted >= 6 && faults === faulted, `the failing job ran on after ${faults} faults`);
      t.same([...(await q.waits([first, second, failing]))], [], 'no waits once every job is done');
      t.equal(retryingSeen, 1, 'stats() counted the one job waiting out a back-off');
      // stats() is a snapshot the queue refreshes on its own beat: read again until it has.
      t.ok(await until(() => q.stats().retrying === 0), 'and none once it ran');
    },
  );
}
