// The composition root: the one place that picks and builds adapters from configuration (store,
// blobs, Redis, rate limiters, render quota, renderer, metrics board, queue) and hands them to
// the process roles in src/service.ts. Embedded or farm is decided here, by `isFarm`, alone.
import type { Check } from './app/probes.ts';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AdminDeps } from './app/admin.ts';
import type { Renderer } from './app/ports/renderer.ts';
import { FsBlobStore } from './blobs/fs-blob-store.ts';
import type { BlobStore } from './blobs/types.ts';
import { type Config, databaseTarget, isFarm } from './config/index.ts';
import { planCatalog } from './domain/plans.ts';
import {
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
  type SignInLimits,
} from './limits/rate-limit.ts';
import { DRAFT_LIMIT, SIGN_IN_LIMITS } from './domain/users.ts';
import { MemoryRenderQuota, type RenderQuota, RedisRenderQuota } from './limits/render-quota.ts';
import type { Metrics, SampleBoard } from './metrics/index.ts';
import { EmbeddedQueue } from './queue/embedded.ts';
import type { JobQueue, JobRunner } from './queue/types.ts';
import { Store } from './store/index.ts';

export { configFromEnv } from './config/index.ts';

export type Role = 'all' | 'api' | 'worker';

/** A name of this process unique across the farm: host, pid and a random tail (pids are reused). */
export const instanceName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** What every process opens first: configuration, the store and the blob store. */
export interface Context extends AdminDeps {
  farm: boolean;
  close(): Promise<void>;
}

/**
 * The blob store the configuration names. The farm's backends (S3, BullMQ, Redis) are imported
 * only by a process configured for them: an embedded server or a CLI command starts without
 * loading their modules (a few hundred milliseconds of every start).
 */
export async function blobStore(config: Config): Promise<BlobStore> {
  if (config.s3Endpoint) {
    const { S3BlobStore } = await import('./blobs/s3-blob-store.ts');
    return new S3BlobStore({
      endpoint: config.s3Endpoint,
      bucket: config.s3Bucket,
      accessKey: config.s3AccessKey,
      secretKey: config.s3SecretKey,
      region: config.s3Region,
    });
  }
  return new FsBlobStore(join(config.dataDir, 'blobs'));
}

/**
 * `quiet`: notes about the services (an S3 server without lifecycle rules) are not printed; the
 * admin commands open the context quietly unless asked (`--verbose`).
 */
export async function openContext(config: Config, opts: { quiet?: boolean } = {}): Promise<Context> {
  const plans = planCatalog(config.planCatalog);
  const blobs = await blobStore(config);
  await blobs.prepare({
    outputDays: config.retentionDays,
    warn: (m) => {
      if (!opts.quiet) process.stderr.write(`scriptorium: ${m}\n`);
    },
  });
  const store = await Store.open(databaseTarget(config), plans);
  return { config, store, blobs, now: () => new Date(), farm: isFarm(config), close: () => store.close() };
}

/** The adapters a serving process runs on, beyond its context. */
/** One render thread under the configured limits, for a command that renders (the caller closes it). */
export async function renderThread(config: Config): Promise<Renderer> {
  const { PiscinaRenderer } = await import('../workers/piscina-renderer.ts');
  return new PiscinaRenderer({
    threads: 1,
    timeoutMs: config.renderTimeoutMs,
    memoryMb: config.renderMemoryMb,
    fontCacheBytes: config.fontCacheMb * 1024 * 1024,
    handIdleMs: config.handProcessIdleMs,
  });
}

export interface Adapters {
  /** This process's name in a farm; none when it runs alone. */
  instance?: string;
  limiter: RateLimiter;
  previewLimiter: RateLimiter;
  /** Dashboard sign-ins, sign-ups and invitation answers: per source address and per email. */
  signInLimits: SignInLimits;
  /** The dashboard builder's previews, per account. */
  draftLimiter: RateLimiter;
  /** Personal font uploads, per account. */
  fontUploadLimiter: RateLimiter;
  /** Pictures given to hands, per account. */
  handPictureLimiter: RateLimiter;
  quota: RenderQuota;
  renderer: Renderer;
  metrics: Metrics;
  board: SampleBoard;
  /** The job queue over the given runner: BullMQ in a farm, in process otherwise. */
  queue(runner: JobRunner, onError: (err: unknown, job: { id: string } | null) => void): JobQueue;
  /** What readiness checks beyond the store and blobs (Redis in a farm). */
  checks: Record<string, Check>;
  /** Closes the renderer, the metrics board and Redis (the queue is stopped by its owner first). */
  close(): Promise<void>;
}

/** `renderer`: one to use instead of the thread pool (the in-process adapter, for fast tests). */
export async function openAdapters(
  ctx: Context,
  opts: { role: Role; log: Logger; renderer?: Renderer },
): Promise<Adapters> {
  const { config } = ctx;
  const { role, log } = opts;
  if (role !== 'all' && !config.redisUrl) {
    throw new Error(
      `--role ${role} needs the farm queue: set REDIS_URL (and DATABASE_URL to PostgreSQL, S3_ENDPOINT for blobs)`,
    );
  }
  const rate = { points: config.rateLimitPerMinute, windowSeconds: config.rateLimitWindowSeconds };
  const previews = { points: config.previewsPerMinute, windowSeconds: 60 };
  const renders = {
    perMinute: config.rendersPerMinute,
    perDay: config.rendersPerDay,
    leaseMs: config.renderSyncTimeoutMs + 5_000,
  };
  const redis = config.redisUrl ? await openRedis(config.redisUrl, log) : null;
  const limiter = redis
    ? new RedisRateLimiter({ ...rate, client: redis, keyPrefix: `${config.redisPrefix}rl` })
    : new MemoryRateLimiter(rate);
  const previewLimiter = redis
    ? new RedisRateLimiter({ ...previews, client: redis, keyPrefix: `${config.redisPrefix}previews` })
    : new MemoryRateLimiter(previews);
  const limited = (opts: { points: number; windowSeconds: number }, name: string) =>
    redis
      ? new RedisRateLimiter({ ...opts, client: redis, keyPrefix: `${config.redisPrefix}${name}` })
      : new MemoryRateLimiter(opts);
  const signInLimits = {
    perAddress: limited(SIGN_IN_LIMITS.perAddress, 'signin-addr'),
    perEmail: limited(SIGN_IN_LIMITS.perEmail, 'signin-email'),
  };
  const draftLimiter = limited(DRAFT_LIMIT, 'drafts');
  const fontUploadLimiter = limited(
    { points: config.personalFontUploadsPerHour, windowSeconds: 3600 },
    'font-uploads',
  );
  const handPictureLimiter = limited(
    { points: config.handPicturesPerHour, windowSeconds: 3600 },
    'hand-pictures',
  );
  const quota = redis
    ? new RedisRenderQuota(redis, config.redisPrefix, renders)
    : new MemoryRenderQuota(renders);

  // Several processes share a farm's queue; each API instance admits up to QUEUE_MAX of its own.
  const instance = ctx.farm ? instanceName() : undefined;
  // The render pool is a serving process's alone: a CLI command that opens a context never loads it.
  if (!opts.renderer)
    log.info(
      { threads: config.poolThreads, rssMiB: Math.round(process.memoryUsage.rss() / 2 ** 20) },
      'starting the render pool',
    );
  const renderer =
    opts.renderer ??
    new (await import('../workers/piscina-renderer.ts')).PiscinaRenderer({
      threads: config.poolThreads,
      timeoutMs: config.renderTimeoutMs,
      memoryMb: config.renderMemoryMb,
      youngMb: config.renderYoungMb,
      fontCacheBytes: config.fontCacheMb * 1024 * 1024,
      handIdleMs: config.handProcessIdleMs,
      onWorkerError: (err) => log.warn({ err: err.message }, 'render worker failed outside a task'),
    });
  // The figures (prom-client) load with a serving process alone, not with every command.
  const { Metrics, SampleBoard } = await import('./metrics/index.ts');
  const metrics = new Metrics(instance ?? instanceName(), role, () => ({
    threads: renderer.threads,
    busy: renderer.busy,
  }));
  const board = new SampleBoard(metrics, redis, config.redisPrefix);
  const backoff = { baseMs: config.jobRetryBaseMs, maxMs: config.jobRetryMaxMs };
  const bull = config.redisUrl ? await import('./queue/bullmq.ts') : null;
  const queue = (runner: JobRunner, onError: (err: unknown, job: { id: string } | null) => void): JobQueue =>
    config.redisUrl && bull
      ? new bull.BullQueue(runner, {
          url: config.redisUrl,
          prefix: config.redisPrefix,
          concurrency: role === 'api' ? 0 : config.poolThreads,
          lockMs: config.queueLockMs,
          leaseMs: config.queueLockMs,
          onError,
          backoff,
        })
      : new EmbeddedQueue(runner, { concurrency: config.poolThreads, onError, backoff });
  const close = async () => {
    await renderer.close();
    await board.stop();
    if (redis) await redis.quit().catch(() => redis.disconnect());
  };
  // Readiness: in a farm, Redis must answer too (the store and blobs are checked by the service).
  const checks: Record<string, Check> = redis ? { redis: () => redis.ping() } : {};
  return {
    instance,
    limiter,
    previewLimiter,
    signInLimits,
    draftLimiter,
    fontUploadLimiter,
    handPictureLimiter,
    quota,
    renderer,
    metrics,
    board,
    queue,
    checks,
    close,
  };
}

/**
 * Longest a request waits on one Redis command of the limits. A Redis that is frozen (stopped,
 * swapping, a full disk under AOF) keeps its connection open and answers nothing; past this the
 * command fails and the memory insurance answers instead.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

async function openRedis(url: string, log: Logger): Promise<Redis> {
  // Fail fast while disconnected, and time out while connected but silent, so the memory
  // insurance limiter answers instead of a hang.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  redis.on('error', (err) =>
    log.warn({ err: err.message }, 'redis unavailable; rate limits fall back to memory'),
  );
  // A frozen Redis keeps the connection open: a ping that times out drops it, so that until Redis
  // answers again every command fails at once (the reconnection waits on Redis's reply).
  const watch = setInterval(() => {
    if (redis.status !== 'ready') return;
    redis.ping().catch((err: Error) => {
      if (!/timed out/i.test(err.message) || redis.status !== 'ready') return;
      log.warn(
        'redis does not answer within %d ms; rate limits fall back to memory',
        REDIS_COMMAND_TIMEOUT_MS,
      );
      redis.disconnect(true);
    });
  }, REDIS_COMMAND_TIMEOUT_MS);
  watch.unref();
  redis.once('end', () => clearInterval(watch));
  // At start Redis must answer (the queue lives there); later outages are ridden out.
  await redis.connect().catch((err: Error) => {
    redis.disconnect();
    throw new Error(`Redis at ${url} does not answer: ${err.message}`);
  });
  return redis;
}
