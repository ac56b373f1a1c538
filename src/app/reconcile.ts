// The reconciler: whatever the store holds unfinished and the queue does not (a crash, a
// restart, Redis lost) is queued again: queued jobs from the start, processing ones as a new
// attempt (the store lets only the newest attempt finish a job, and charges once).
import type { Logger } from 'pino';
import type { JobQueue } from '../queue/types.ts';
import type { Store } from '../store/index.ts';
import { feedBatch } from './batches.ts';

/**
 * Queues every unfinished job the queue does not hold, and each unfinished batch's next rows
 * (its first BATCH_SHARE unfinished ones); returns how many jobs were queued.
 */
export async function reconcile(
  d: { store: Store; queue: JobQueue; log: Logger; config: { batchShare: number } },
  opts: { atStart: boolean },
): Promise<number> {
  const held = await d.queue.held();
  let requeued = 0;
  const batches = new Set<string>();
  for (const job of await d.store.generations.unfinished()) {
    if (held.has(job.id)) continue;
    if (job.batchId !== null) batches.add(job.batchId);
    else {
      d.queue.enqueue(job);
      requeued++;
    }
  }
  for (const id of batches) requeued += (await feedBatch(d, id)).filter((row) => !held.has(row)).length;
  // At start every unfinished job is expected to be missing; later, only a lost queue loses them.
  if (requeued && !opts.atStart) d.log.warn({ requeued }, 'reconciler queued jobs the queue did not hold');
  return requeued;
}
