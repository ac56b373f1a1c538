// The job queue contract against both adapters: in process, and BullMQ on the machine's Redis
// (each run under a key prefix of its own, removed afterwards).
import { Redis } from 'ioredis';
import t from 'tap';
import { BullQueue } from '../src/queue/bullmq.ts';
import { EmbeddedQueue } from '../src/queue/embedded.ts';
import { queueContract } from './contract/queue.ts';

const onError = (err: unknown) => {
  throw err;
};
queueContract(t, 'embedded', async (run, concurrency) => new EmbeddedQueue(run, { concurrency, onError }));

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
const redisUp = await probe.connect().then(
  () => true,
  () => false,
);
if (!redisUp && process.env.CI) throw new Error(`Redis does not answer at ${url}`);
const prefix = `test-queue-${process.pid}:`;
t.teardown(async () => {
  if (!redisUp) return;
  const keys = await probe.keys(`${prefix}*`);
  if (keys.length) await probe.del(...keys);
  await probe.quit();
});
let n = 0;
queueContract(t, 'bullmq', async (run, concurrency) => {
  if (!redisUp) throw new Error('no Redis');
  return new BullQueue(run, { url, prefix: `${prefix}${n++}:`, concurrency, onError, retryMs: 50 });
});
