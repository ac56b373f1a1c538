// The batch feeder (docs/batches.md): a batch's rows wait in the store, and at most BATCH_SHARE of
// them are in the queue at once, its first unfinished ones in row order. The queue is fed when
// the batch is admitted, when one of its rows ends or is cancelled, and by the reconciler.
import type { Logger } from 'pino';
import type { JobQueue, JobRunner, QueuedJob } from '../queue/types.ts';
import type { Store } from '../store/index.ts';

export interface FeederDeps {
  store: Store;
  queue: JobQueue;
  config: { batchShare: number };
}

/** The rows of a batch that should be in the queue now (its first BATCH_SHARE unfinished ones), as the queue takes them. */
export async function dueRows(
  d: { store: Store; config: { batchShare: number } },
  batchId: string,
): Promise<QueuedJob[]> {
  const next = await d.store.batches.nextRows(batchId, d.config.batchShare);
  return next.map((row) => ({ ...row, batch: { id: batchId, share: d.config.batchShare } }));
}

/** Hands the batch's next rows to the queue (rows the queue holds already are not added twice). */
export async function feedBatch(d: FeederDeps, batchId: string): Promise<void> {
  for (const row of await dueRows(d, batchId)) d.queue.enqueue(row);
}

/**
 * What happens when a job ends: `run`, then, for a batch's row, the batch's next rows queued. A
 * failure to queue them is logged and left to the reconciler; the job's own outcome stands.
 * `deps` is read when a job ends (the queue is built around the runner this returns).
 */
export function feedingRunner(run: JobRunner, deps: () => FeederDeps, log: Logger): JobRunner {
  return async (job, signal) => {
    await run(job, signal);
    if (!job.batch) return;
    await feedBatch(deps(), job.batch.id).catch((err: unknown) =>
      log.error(
        { err, batch: job.batch?.id },
        'could not queue the next rows of a batch; the reconciler will',
      ),
    );
  };
}
