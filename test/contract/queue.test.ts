// The job queue contract over each of its backends (in process, BullMQ on Redis).
import t from 'tap';
import { backends, eachBackend } from './backends.ts';
import { queueContract } from './queue.ts';

await eachBackend(t, backends.queue, queueContract);
