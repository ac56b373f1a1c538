// The job queue port: the store owns a job's status; the queue only decides when a worker runs
// it. Two adapters: in process (embedded) and BullMQ (farm). Running a job twice is harmless:
// the store lets only the newest attempt finish it, and charges once.

export interface QueuedJob {
  id: string;
  accountId: string;
  /**
   * A batch's row: its batch, and how many of the account's batch rows may run at once
   * (BATCH_SHARE), beside its single job; without it, one job of the account at a time (spec §8).
   */
  batch?: { id: string; share: number };
}

/**
 * Jobs beyond a process's render threads that only batch rows may take: claimed, they wait for a
 * thread in the renderer (their time limit not yet running) while other rows' outputs are being
 * stored, so no thread idles between rows. Single jobs never exceed the threads: a single job is
 * `processing` only while it renders (spec §8: two at once by default).
 */
export const BATCH_EXTRA_JOBS = 2;

/** Whether one more job may start beside `running`, `concurrency` being the render threads. */
export function roomFor(job: QueuedJob, running: QueuedJob[], concurrency: number): boolean {
  if (running.length >= concurrency + BATCH_EXTRA_JOBS) return false;
  return job.batch !== undefined || running.filter((r) => r.batch === undefined).length < concurrency;
}

/** The lane a job runs in: its account's single lane, or its account's batch lane, and how many run there at once. */
export function laneOf(job: QueuedJob): { key: string; slots: number } {
  return job.batch === undefined
    ? { key: job.accountId, slots: 1 }
    : { key: `${job.accountId}:batch`, slots: job.batch.share };
}

/**
 * Runs one job to its end; rejects only on a fault of the service itself (a full disk, a store
 * that cannot be reached). A rejected job is run again after a back-off (`retryDelay`), for as
 * long as it rejects: the store's attempt count bounds how often a job is tried.
 */
export type JobRunner = (job: QueuedJob, signal: AbortSignal) => Promise<void>;

/** Back-off of a job whose run rejected: doubling from `baseMs` up to `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 60_000 };

/** The wait before the run after the `faults`-th rejection in a row. */
export function retryDelay(faults: number, b: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, Math.min(faults - 1, 30)));
}

export interface QueueStats {
  waiting: number;
  active: number;
  /** Of the waiting: jobs held back (their account already has one running, or a back-off). */
  delayed: number;
  /** Of the delayed: jobs waiting out the back-off after a run that failed on a fault of the service. */
  retrying: number;
}

/**
 * Why a job the queue holds is not running. `retry`: it waits out the back-off after `faults`
 * runs in a row failed on a fault of the service (a store or disk that failed), and is tried
 * again at `until`. `account`: its account's lane is full (one single job per account, or the
 * batch lane's share), and it is tried again when that run ends (`until`, in a farm, is the next
 * look). `threads`: it is next in line for a free render thread. Jobs running or unknown to the
 * queue have none.
 */
export interface JobWait {
  reason: 'retry' | 'account' | 'threads';
  until?: Date;
  /** Runs in a row that failed on a fault of the service: the run waited for is retry number `faults`. */
  faults: number;
}

export interface JobQueue {
  /**
   * Whether other processes share this queue (farm). A shared queue lives outside the process
   * and can lose jobs the store still holds unfinished (Redis lost): it is reconciled now and then.
   */
  readonly shared: boolean;
  /** Ids of the jobs the queue holds now, waiting or running. */
  held(): Promise<Set<string>>;
  /** Hands a job to the workers; a job already waiting or running is not added twice. */
  enqueue(job: QueuedJob): void;
  /** Stops the job: out of the queue if it waits, its task aborted if it runs. */
  abort(id: string): void;
  stats(): QueueStats;
  /** Why each of these jobs, where the queue holds it and it is not running, waits. */
  waits(ids: readonly string[]): Promise<Map<string, JobWait>>;
  /** Takes no new work; waits for running jobs up to `graceMs`, then aborts them. */
  stop(graceMs: number): Promise<void>;
}
