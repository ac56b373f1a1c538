// The reconciler: whatever the store holds unfinished and the queue does not (a crash, a
// restart, Redis lost) is queued again: queued jobs from the start, processing ones as a new
// attempt (the store lets only the newest attempt finish a job, and charges once).
import type { Logger } from 'pino';
import type { JobQueue } from '../queue/types.ts';
import type { Store } from '../store/index.ts';
import { dueRows } from './batch-feeder.ts';

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
  if (batches.size) {
    // A batch's rows move on all the time (each row's end hands the queue the next): what the
    // queue did not hold a moment ago it may hold now, so it is asked again before counting.
    const due = [];
    for (const id of batches) due.push(...(await dueRows(d, id)));
    const now = await d.queue.held();
    for (const row of due) {
      if (held.has(row.id) || now.has(row.id)) continue;
      d.queue.enqueue(row);
      requeued++;
    }
  }
  // At start every unfinished job is expected to be missing; later, only a lost queue loses them.
  if (requeued && !opts.atStart) d.log.warn({ requeued }, 'reconciler queued jobs the queue did not hold');
  return requeued;
}
