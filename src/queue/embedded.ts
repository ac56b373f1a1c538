// The embedded queue: jobs wait in memory in arrival order and run in this process, as many at a
// time as the render pool has threads and at most one per account (spec §8: heavy rendering,
// at most one per user), an account's batch rows in a lane of their own (BATCH_SHARE at once). Nothing here needs to survive a crash: the jobs table does, and the
// service hands every unfinished row back to the queue when it starts.
import {
  type Backoff,
  DEFAULT_BACKOFF,
  type JobQueue,
  type JobRunner,
  type JobWait,
  laneOf,
  roomFor,
  type QueuedJob,
  type QueueStats,
  retryDelay,
} from './types.ts';

export class EmbeddedQueue implements JobQueue {
  readonly shared = false;
  private readonly waiting: QueuedJob[] = [];
  private readonly active = new Map<
    string,
    { job: QueuedJob; controller: AbortController; done: Promise<void> }
  >();
  /** Jobs whose run rejected, waiting out their back-off. */
  private readonly backingOff = new Map<string, { job: QueuedJob; timer: NodeJS.Timeout; until: Date }>();
  /** Rejections in a row per job, for the back-off. */
  private readonly faults = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly run: JobRunner,
    private readonly opts: {
      concurrency: number;
      onError: (err: unknown, job: QueuedJob) => void;
      backoff?: Backoff;
    },
  ) {}

  enqueue(job: QueuedJob): void {
    if (
      this.stopped ||
      this.active.has(job.id) ||
      this.backingOff.has(job.id) ||
      this.waiting.some((w) => w.id === job.id)
    )
      return;
    this.waiting.push(job);
    this.pump();
  }

  async held(): Promise<Set<string>> {
    return new Set([...this.waiting.map((w) => w.id), ...this.active.keys(), ...this.backingOff.keys()]);
  }

  abort(id: string): void {
    const at = this.waiting.findIndex((w) => w.id === id);
    if (at >= 0) this.waiting.splice(at, 1);
    this.dropBackoff(id);
    this.active.get(id)?.controller.abort();
  }

  /** Jobs running per lane. */
  private busyLanes(): Map<string, number> {
    const busy = new Map<string, number>();
    for (const a of this.active.values()) {
      const key = laneOf(a.job).key;
      busy.set(key, (busy.get(key) ?? 0) + 1);
    }
    return busy;
  }

  /** Whether the job's lane has room for one more. */
  private static free(busy: Map<string, number>, job: QueuedJob): boolean {
    const lane = laneOf(job);
    return (busy.get(lane.key) ?? 0) < lane.slots;
  }

  stats(): QueueStats {
    const busy = this.busyLanes();
    const held = this.waiting.filter((w) => !EmbeddedQueue.free(busy, w)).length + this.backingOff.size;
    return {
      waiting: this.waiting.length + this.backingOff.size,
      active: this.active.size,
      delayed: held,
      retrying: this.backingOff.size,
    };
  }

  async waits(ids: readonly string[]): Promise<Map<string, JobWait>> {
    const busy = this.busyLanes();
    const out = new Map<string, JobWait>();
    for (const id of ids) {
      const faults = this.faults.get(id) ?? 0;
      const backoff = this.backingOff.get(id);
      const waiting = this.waiting.find((w) => w.id === id);
      if (backoff) out.set(id, { reason: 'retry', until: backoff.until, faults });
      else if (waiting)
        out.set(id, { reason: EmbeddedQueue.free(busy, waiting) ? 'threads' : 'account', faults });
    }
    return out;
  }

  private dropBackoff(id: string): void {
    const b = this.backingOff.get(id);
    if (b) clearTimeout(b.timer);
    this.backingOff.delete(id);
    this.faults.delete(id);
  }

  /** A rejected run: the job waits out its back-off, then queues again. */
  private retryLater(job: QueuedJob): void {
    if (this.stopped) return;
    const faults = (this.faults.get(job.id) ?? 0) + 1;
    this.faults.set(job.id, faults);
    const delay = retryDelay(faults, this.opts.backoff ?? DEFAULT_BACKOFF);
    const timer = setTimeout(() => {
      this.backingOff.delete(job.id);
      this.enqueue(job);
    }, delay);
    timer.unref();
    this.backingOff.set(job.id, { job, timer, until: new Date(Date.now() + delay) });
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    for (const id of [...this.backingOff.keys()]) this.dropBackoff(id);
    const running = [...this.active.values()];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const r of running) r.controller.abort();
        resolve();
      }, graceMs);
    });
    await Promise.race([Promise.all(running.map((r) => r.done)), late]);
    clearTimeout(timer);
    await Promise.all(running.map((r) => r.done));
  }

  /** Starts the oldest waiting jobs whose lanes have room (DESIGN §3: one single job per account), while threads are free. */
  private pump(): void {
    while (!this.stopped) {
      const busy = this.busyLanes();
      const running = [...this.active.values()].map((a) => a.job);
      const at = this.waiting.findIndex(
        (w) => EmbeddedQueue.free(busy, w) && roomFor(w, running, this.opts.concurrency),
      );
      if (at < 0) return;
      const [job] = this.waiting.splice(at, 1) as [QueuedJob];
      const controller = new AbortController();
      let failed = false;
      const done = this.run(job, controller.signal)
        .then(() => {
          this.faults.delete(job.id);
        })
        .catch((err: unknown) => {
          failed = true;
          this.opts.onError(err, job);
        })
        .finally(() => {
          this.active.delete(job.id);
          if (failed && !controller.signal.aborted) this.retryLater(job);
          this.pump();
        });
      this.active.set(job.id, { job, controller, done });
    }
  }
}
