// The one table of backends: every port's adapters, the service each needs, and how a contract
// suite gets a factory of fresh instances (isolated: own database, own key prefix, own bucket
// or directory, all removed afterwards). Each contract test runs its suite over its row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Test } from 'tap';
import { InProcessRenderer } from '../../workers/in-process-renderer.ts';
import { PiscinaRenderer } from '../../workers/piscina-renderer.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { MemoryRateLimiter, RedisRateLimiter } from '../../src/limits/rate-limit.ts';
import { MemoryRenderQuota, RedisRenderQuota } from '../../src/limits/render-quota.ts';
import { BullQueue } from '../../src/queue/bullmq.ts';
import { EmbeddedQueue } from '../../src/queue/embedded.ts';
import { startS3 } from '../helpers/s3.ts';
import { REDIS_URL, redisPrefix, type Service, unavailable } from '../helpers/services.ts';
import { postgresFactory, sqliteFactory, type StoreFactory } from '../helpers/stores.ts';
import type { BlobStoreFactory } from './blobs.ts';
import type { QueueFactory } from './queue.ts';
import type { LimiterFactory } from './rate-limit.ts';
import type { RenderQuotaFactory } from './render-quota.ts';
import type { RendererFactory } from './renderer.ts';

export interface Backend<F> {
  name: string;
  /** The machine's service it runs on, if any. */
  needs?: Service;
  /** A factory of fresh instances, isolated for this test and cleaned up after it. */
  setup(t: Test): Promise<F>;
}

/** A rejected run is part of the queue's contract (it is run again); the suite counts runs. */
const onError = () => {};
/** Short back-offs, so the contract's retries take a moment. */
const backoff = { baseMs: 50, maxMs: 400 };

/** A Redis client of the test's own, closed at its end. */
function redisClient(t: Test): Redis {
  const client = new Redis(REDIS_URL);
  t.teardown(() => client.quit());
  return client;
}

export const backends: {
  store: Backend<() => Promise<StoreFactory>>[];
  queue: Backend<QueueFactory>[];
  blobs: Backend<BlobStoreFactory>[];
  rateLimiter: Backend<LimiterFactory>[];
  renderQuota: Backend<RenderQuotaFactory>[];
  renderer: Backend<RendererFactory>[];
} = {
  store: [
    { name: 'sqlite', setup: async () => sqliteFactory },
    { name: 'postgres', needs: 'postgres', setup: async () => postgresFactory },
  ],
  queue: [
    {
      name: 'embedded',
      setup: async () => async (run, concurrency) =>
        new EmbeddedQueue(run, { concurrency, onError, backoff }),
    },
    {
      name: 'bullmq',
      needs: 'redis',
      async setup(t) {
        const prefix = redisPrefix(t, 'queue');
        let n = 0;
        return async (run, concurrency) =>
          new BullQueue(run, {
            url: REDIS_URL,
            prefix: `${prefix}${n++}:`,
            concurrency,
            onError,
            retryMs: 50,
            backoff,
          });
      },
    },
  ],
  blobs: [
    {
      name: 'directory',
      async setup(t) {
        const dir = mkdtempSync(join(tmpdir(), 'scriptorium-blobs-'));
        t.teardown(() => rmSync(dir, { recursive: true, force: true }));
        let n = 0;
        return async () => new FsBlobStore(join(dir, String(n++)));
      },
    },
    {
      name: 's3',
      async setup(t) {
        const s3 = await startS3(t);
        let n = 0;
        return async () => {
          const store = new S3BlobStore({ ...s3, bucket: `contract-${n++}` });
          await store.prepare({ outputDays: 7, warn: () => {} });
          return store;
        };
      },
    },
  ],
  rateLimiter: [
    {
      name: 'memory',
      setup: async () => async (points) => new MemoryRateLimiter({ points, windowSeconds: 60 }),
    },
    {
      name: 'redis',
      needs: 'redis',
      async setup(t) {
        const client = redisClient(t);
        const prefix = redisPrefix(t, 'rl');
        let n = 0;
        return async (points) =>
          new RedisRateLimiter({ points, windowSeconds: 60, client, keyPrefix: `${prefix}c${n++}` });
      },
    },
  ],
  renderQuota: [
    { name: 'memory', setup: async () => async (opts) => new MemoryRenderQuota(opts) },
    {
      name: 'redis',
      needs: 'redis',
      async setup(t) {
        const client = redisClient(t);
        const prefix = redisPrefix(t, 'quota');
        let n = 0;
        return async (opts) => new RedisRenderQuota(client, `${prefix}q${n++}:`, opts);
      },
    },
  ],
  renderer: [
    { name: 'in-process', setup: async () => async () => new InProcessRenderer() },
    {
      name: 'piscina',
      setup: async () => async () => new PiscinaRenderer({ threads: 2, timeoutMs: 60_000, memoryMb: 256 }),
    },
  ],
};

/** Runs a port's contract over each of its backends, each in a subtest of its own. */
export async function eachBackend<F>(
  t: Test,
  list: readonly Backend<F>[],
  contract: (t: Test, name: string, make: F) => void,
): Promise<void> {
  for (const backend of list) {
    const skip = backend.needs ? await unavailable(backend.needs) : false;
    t.test(backend.name, { skip }, async (t) => contract(t, backend.name, await backend.setup(t)));
  }
}
