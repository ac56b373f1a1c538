// The reconciler: whatever the store holds unfinished and the queue does not (a crash, a
// restart, Redis lost) is queued again: queued jobs from the start, processing ones as a new
// attempt (the store lets only the newest attempt finish a job, and charges once).
import type { Logger } from 'pino';
import type { JobQueue } from '../queue/types.ts';
import type { Store } from '../store/index.ts';

/** Queues every unfinished job the queue does not hold; returns how many. */
export async function reconcile(
  d: { store: Store; queue: JobQueue; log: Logger },
  opts: { atStart: boolean },
): Promise<number> {
  const held = await d.queue.held();
  let requeued = 0;
  for (const job of await d.store.generations.unfinished()) {
    if (held.has(job.id)) continue;
    d.queue.enqueue(job);
    requeued++;
  }
  // At start every unfinished job is expected to be missing; later, only a lost queue loses them.
  if (requeued && !opts.atStart) d.log.warn({ requeued }, 'reconciler queued jobs the queue did not hold');
  return requeued;
}
