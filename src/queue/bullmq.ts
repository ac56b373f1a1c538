// The farm queue: BullMQ on Redis. The SQL store owns a job's status; BullMQ only carries "run
// generation X" to some worker, with job id = generation id so a job is never queued twice.
// BullMQ is at-least-once (a stalled job runs again): the store lets only the newest attempt
// complete, and charges once. One heavy task per account across all workers: a Redis lease
// (SET NX PX, renewed while the job runs, released by compare-and-delete); a job whose account
// holds the lease goes back to the delayed set (moveToDelayed + DelayedError) and tries later.
// Cancel reaches the process running the job through Redis pub/sub.
import { randomBytes } from 'node:crypto';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  type Backoff,
  DEFAULT_BACKOFF,
  type JobQueue,
  BATCH_EXTRA_JOBS,
  type JobRunner,
  type JobWait,
  laneOf,
  roomFor,
  type QueuedJob,
  type QueueStats,
  retryDelay,
} from './types.ts';

export interface BullQueueOptions {
  url: string;
  /** Every key under this prefix (REDIS_PREFIX), so deployments and test runs can share a Redis. */
  prefix: string;
  /** Consumes jobs here with this many at a time (a worker role); 0 = produce only (an API role). */
  concurrency: number;
  onError: (err: unknown, job: QueuedJob | null) => void;
  /** How long an account's lease lives without renewal, ms (a dead worker frees it after this). */
  leaseMs?: number;
  /** Delay before a job whose account is busy is tried again, ms. */
  retryMs?: number;
  /** BullMQ lock: a worker that stops renewing it (killed) has its job run elsewhere after this, ms. */
  lockMs?: number;
  /** Back-off of a job whose run rejected (a storage fault): it is delayed, then run again. */
  backoff?: Backoff;
}

/** What the queue carries: the job, and how many runs in a row rejected (for the back-off). */
type Carried = QueuedJob & { faults?: number };

const QUEUE = 'generations';
/** Releases the lease only if it still holds our token. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Extends the lease only if it still holds our token. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/** Time a stop may wait on Redis beyond the jobs' grace. */
const STOP_SLACK_MS = 2000;

/** Waits for `p`, or `ms`, whichever comes first (what is still pending is left behind). */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p.catch(() => {}),
    new Promise<void>((r) => {
      timer = setTimeout(r, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** How long an aborted job's id is remembered in this process. */
const ABORTED_KEPT_MS = 10 * 60_000;

export class BullQueue implements JobQueue {
  readonly shared = true;
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly redis: Redis;
  private readonly subscriber: Redis | null;
  private readonly running = new Map<string, AbortController>();
  /** What each running job is (a batch's row or a single job), for roomFor. */
  private readonly jobs = new Map<string, QueuedJob>();
  /**
   * Jobs aborted lately. An abort that comes while a failed run is still being moved to its
   * back-off finds the job neither removable (it is locked) nor running: it is remembered, so the
   * job is not run again (for ABORTED_KEPT_MS; the store's status guards after that).
   */
  private readonly aborted = new Set<string>();
  /** Connections this queue opened, closed by stop(). */
  private readonly connections: Redis[] = [];
  private counts: QueueStats = { waiting: 0, active: 0, delayed: 0, retrying: 0 };
  /** Seconds in a row this worker sat idle while jobs waited. */
  private idleWhileWaiting = 0;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly run: JobRunner,
    private readonly opts: BullQueueOptions,
  ) {
    const connection = () => {
      const c = new Redis(opts.url, { maxRetriesPerRequest: null });
      c.on('error', () => {}); // reconnects on its own; BullMQ reports what matters
      this.connections.push(c);
      return c;
    };
    this.connect = connection;
    this.redis = connection();
    this.queue = new Queue(QUEUE, { connection: this.redis, prefix: this.bullPrefix });
    this.queue.on('error', (err) => opts.onError(err, null));
    this.subscriber = opts.concurrency > 0 ? connection() : null;
    if (this.subscriber) {
      void this.subscriber.subscribe(this.cancelChannel);
      this.subscriber.on('message', (_channel, id: string) => {
        this.remember(id);
        this.running.get(id)?.abort();
      });
      this.worker = this.startWorker();
    }
    this.timer = setInterval(() => void this.refresh(), 1000).unref();
  }

  private readonly connect: () => Redis;

  private get bullPrefix(): string {
    return `${this.opts.prefix}bull`;
  }

  private get cancelChannel(): string {
    return `${this.opts.prefix}cancel`;
  }

  /** A set of the jobs waiting out a back-off after a fault, or waiting to run the retry after it. */
  private get retryingKey(): string {
    return `${this.opts.prefix}retrying`;
  }

  private startWorker(): Worker {
    const worker = new Worker(QUEUE, (job, token) => this.process(job, token), {
      connection: this.connect(),
      prefix: this.bullPrefix,
      // Batch rows may take a few slots beyond the threads (BATCH_EXTRA_JOBS); process() keeps
      // single jobs within the threads.
      concurrency: this.opts.concurrency + BATCH_EXTRA_JOBS,
      lockDuration: this.opts.lockMs ?? 30_000,
      stalledInterval: this.opts.lockMs ?? 30_000,
      // A job whose worker died goes back to waiting when its lock lapses; runs again, not failed.
      maxStalledCount: 1_000,
      autorun: true,
    });
    worker.on('error', (err) => this.opts.onError(err, null));
    return worker;
  }

  enqueue(job: QueuedJob): void {
    if (this.stopped) return;
    this.queue
      .add('render', job, { jobId: job.id, removeOnComplete: true, removeOnFail: true })
      .catch((err: unknown) => this.opts.onError(err, job));
  }

  abort(id: string): void {
    // Waiting or delayed: out of the queue. Running somewhere: its process hears the channel.
    this.remember(id);
    void this.queue.remove(id).catch(() => {});
    void this.redis.srem(this.retryingKey, id).catch(() => {});
    void this.redis.publish(this.cancelChannel, id).catch(() => {});
    this.running.get(id)?.abort();
  }

  private remember(id: string): void {
    this.aborted.add(id);
    setTimeout(() => this.aborted.delete(id), ABORTED_KEPT_MS).unref();
  }

  stats(): QueueStats {
    return this.counts;
  }

  private async refresh(): Promise<void> {
    let waiting: number;
    try {
      const [c, retrying] = await Promise.all([
        this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active'),
        this.redis.scard(this.retryingKey),
      ]);
      waiting = (c.waiting ?? 0) + (c.prioritized ?? 0);
      this.counts = {
        waiting: waiting + (c.delayed ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        retrying: Math.min(retrying, c.delayed ?? 0),
      };
    } catch {
      return; // Redis away: the figures wait for it.
    }
    // A BullMQ worker can stop taking jobs after its connection comes back. Jobs ready to run,
    // this worker idle, five seconds in a row: it is replaced by a fresh one.
    if (!this.worker || this.stopped) return;
    this.idleWhileWaiting = waiting > 0 && this.running.size === 0 ? this.idleWhileWaiting + 1 : 0;
    if (this.idleWhileWaiting >= 5) {
      this.idleWhileWaiting = 0;
      const stale = this.worker;
      this.worker = this.startWorker();
      this.opts.onError(new Error('the queue worker took no jobs while jobs waited; replaced'), null);
      void stale.close(true).catch(() => {});
    }
  }

  async waits(ids: readonly string[]): Promise<Map<string, JobWait>> {
    const out = new Map<string, JobWait>();
    if (!ids.length) return out;
    const p = this.redis.pipeline();
    for (const id of ids)
      p.zscore(this.queue.keys.delayed!, id)
        .hget(this.queue.toKey(id), 'data')
        .lpos(this.queue.keys.wait!, id)
        .sismember(this.retryingKey, id);
    const replies = (await p.exec()) ?? [];
    for (const [i, id] of ids.entries()) {
      const [score, data, inLine, retrying] = replies.slice(4 * i, 4 * i + 4).map((r) => r?.[1]);
      let faults = 0;
      try {
        faults = (JSON.parse(String(data)) as Carried).faults ?? 0;
      } catch {}
      // A delayed job's score is the time it is due, in ms, times 0x1000 (BullMQ's getDelayedScore).
      if (score !== null && score !== undefined)
        out.set(id, {
          reason: retrying ? 'retry' : 'account',
          until: new Date(Math.floor(Number(score) / 0x1000)),
          faults,
        });
      else if (inLine !== null && inLine !== undefined) out.set(id, { reason: 'threads', faults });
    }
    return out;
  }

  /** Ids of jobs BullMQ holds in any live state, for the reconciler. */
  async held(): Promise<Set<string>> {
    const jobs = await this.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    return new Set(jobs.filter(Boolean).map((j) => j.id!));
  }

  private async process(job: Job<Carried>, token?: string): Promise<void> {
    const { faults: _, ...queued } = job.data;
    const { id } = queued;
    if (this.aborted.has(id)) return;
    const mine = randomBytes(12).toString('hex');
    const leaseMs = this.opts.leaseMs ?? 30_000;
    // The slot is taken at once, before any await: two jobs starting together see each other.
    const room = roomFor(queued, [...this.jobs.values()], this.opts.concurrency);
    if (room) this.jobs.set(id, queued);
    const lease = room
      ? await this.takeLease(queued, mine, leaseMs).catch((err: unknown) => {
          this.jobs.delete(id);
          throw err;
        })
      : null;
    if (!lease) {
      if (room) this.jobs.delete(id);
      await job.moveToDelayed(Date.now() + (this.opts.retryMs ?? 500), token);
      throw new DelayedError();
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    const renew = setInterval(
      () => void this.redis.eval(RENEW, 1, lease, mine, String(leaseMs)).catch(() => {}),
      leaseMs / 3,
    );
    let failed = false;
    try {
      await this.run(queued, controller.signal);
    } catch (err) {
      failed = !controller.signal.aborted;
      this.opts.onError(err, queued);
    } finally {
      clearInterval(renew);
      this.running.delete(id);
      this.jobs.delete(id);
      await this.redis.eval(RELEASE, 1, lease, mine).catch(() => {});
    }
    if (!failed || this.aborted.has(id)) {
      if (job.data.faults) await this.redis.srem(this.retryingKey, id).catch(() => {});
      return;
    }
    // Run again after a back-off. Should Redis fail here too, the job leaves the queue and the
    // reconciler queues it again from the store.
    const faults = (job.data.faults ?? 0) + 1;
    await job.updateData({ ...queued, faults });
    await this.redis.sadd(this.retryingKey, id);
    await job.moveToDelayed(Date.now() + retryDelay(faults, this.opts.backoff ?? DEFAULT_BACKOFF), token);
    throw new DelayedError();
  }

  /** One of the slots of the job's lane (its account's single lane, or its batch lane), or null when all are taken. */
  private async takeLease(job: QueuedJob, mine: string, leaseMs: number): Promise<string | null> {
    const lane = laneOf(job);
    for (let slot = 0; slot < lane.slots; slot++) {
      const key = `${this.opts.prefix}lease:${lane.key}${lane.slots > 1 ? `:${slot}` : ''}`;
      if ((await this.redis.set(key, mine, 'PX', leaseMs, 'NX')) === 'OK') return key;
    }
    return null;
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.worker) {
      // No new jobs; the running ones get the grace period, then are aborted (their jobs stay
      // processing in the store and run again elsewhere).
      const closing = this.worker.close();
      const late = setTimeout(() => {
        for (const c of this.running.values()) c.abort();
      }, graceMs);
      await within(closing, graceMs + STOP_SLACK_MS);
      clearTimeout(late);
    }
    // With Redis gone or frozen, closing waits forever on commands that never return: past the
    // grace the connections are cut (the store keeps every job's state; nothing is lost).
    await within(this.queue.close(), STOP_SLACK_MS);
    await within(
      Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect()))),
      STOP_SLACK_MS,
    );
    // The worker's and the queue's own connections (a blocking one among them) too: a client
    // left trying to reconnect would keep the process alive.
    await within(Promise.all([this.worker?.disconnect(), this.queue.disconnect()]), STOP_SLACK_MS);
    for (const c of this.connections) c.disconnect();
  }
}
