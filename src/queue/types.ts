// The job queue port: the store owns a job's status; the queue only decides when a worker runs
// it. Two adapters: in process (embedded) and BullMQ (farm). Running a job twice is harmless:
// the store lets only the newest attempt finish it, and charges once.

export interface QueuedJob {
  id: string;
  accountId: string;
}

/** Runs one job to its end; rejects only on a fault of the service itself. */
export type JobRunner = (job: QueuedJob, signal: AbortSignal) => Promise<void>;

export interface QueueStats {
  waiting: number;
  active: number;
  /** Of the waiting: jobs held back because their account already has one running. */
  delayed: number;
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
  /** Takes no new work; waits for running jobs up to `graceMs`, then aborts them. */
  stop(graceMs: number): Promise<void>;
}
