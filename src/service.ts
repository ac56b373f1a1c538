// A running process: context, limiters, request counter, HTTP server, the job queue on the render
// pool with the sweeper, and the orderly stop (stop accepting → drain in-flight requests → let
// running jobs finish → flush counters → close the pool, Redis and the store).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { type Api, createApi } from './api/pipeline.ts';
import { adminAuthorized, LIVE_PATH } from './api/admin.ts';
import { type HttpServer, type LiveFeed, listen } from './api/uws-server.ts';
import { jobRunner, sweep } from './app/generations.ts';
import { reconcile } from './app/reconcile.ts';
import { combine, Metrics, SampleBoard, type Snapshot } from './metrics/index.ts';
import { todayRange } from './domain/usage-range.ts';
import { PiscinaRenderer } from '../workers/piscina-renderer.ts';
import { RequestCounter } from './app/request-counter.ts';
import type { Context } from './composition.ts';
import type { Renderer } from './app/ports/renderer.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './limits/rate-limit.ts';
import { MemoryRenderQuota, type RenderQuota, RedisRenderQuota } from './limits/render-quota.ts';
import { BullQueue } from './queue/bullmq.ts';
import { EmbeddedQueue } from './queue/embedded.ts';
import type { JobQueue } from './queue/types.ts';

export type Role = 'all' | 'api' | 'worker';

/** A name of this process unique across the farm: host, pid and a random tail (pids are reused). */
export const instanceName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

export interface Service {
  role: Role;
  /** This process's name in a farm; none when it runs alone. */
  instance?: string;
  api: Api;
  /** The HTTP front end; a worker role has none. */
  http: HttpServer | null;
  queue: JobQueue;
  renderer: Renderer;
  /** Runs the sweeper once now (it also runs every SWEEP_INTERVAL_MS). */
  sweep(): Promise<{ expired: number; orphans: number }>;
  counter: RequestCounter;
  log: Logger;
  metrics: Metrics;
  /** The service-wide figures now. */
  snapshot(): Promise<Snapshot>;
  /** Idempotent; resolves when everything is closed. */
  stop(graceMs?: number): Promise<void>;
}

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'scriptorium' } }, pino.destination(2));
}

export async function startService(ctx: Context, opts: { log?: Logger; role?: Role } = {}): Promise<Service> {
  const { config } = ctx;
  const role = opts.role ?? 'all';
  const log = opts.log ?? createLogger(config.logLevel);
  if (role !== 'all' && !config.redisUrl) {
    throw new Error(`--role ${role} needs the farm queue: set REDIS_URL (and DATABASE_URL to PostgreSQL, S3_ENDPOINT for blobs)`);
  }
  let redis: Redis | null = null;
  let limiter: RateLimiter;
  let previewLimiter: RateLimiter;
  const rate = { points: config.rateLimitPerMinute, windowSeconds: 60 };
  const previews = { points: config.previewsPerMinute, windowSeconds: 60 };
  const renders = { perMinute: config.rendersPerMinute, perDay: config.rendersPerDay, leaseMs: config.renderSyncTimeoutMs + 5_000 };
  let quota: RenderQuota;
  if (config.redisUrl) {
    // Fail fast while disconnected so the memory insurance limiter answers instead of a hang.
    redis = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    redis.on('error', (err) =>
      log.warn({ err: err.message }, 'redis unavailable; rate limits fall back to memory'),
    );
    // At start Redis must answer (the queue lives there); later outages are ridden out.
    await redis.connect().catch((err: Error) => {
      redis?.disconnect();
      throw new Error(`Redis at ${config.redisUrl} does not answer: ${err.message}`);
    });
    limiter = new RedisRateLimiter({ ...rate, client: redis, keyPrefix: `${config.redisPrefix}rl` });
    previewLimiter = new RedisRateLimiter({ ...previews, client: redis, keyPrefix: `${config.redisPrefix}previews` });
    quota = new RedisRenderQuota(redis, config.redisPrefix, renders);
  } else {
    limiter = new MemoryRateLimiter(rate);
    previewLimiter = new MemoryRateLimiter(previews);
    quota = new MemoryRenderQuota(renders);
  }

  // Several processes share a farm's queue; each API instance admits up to QUEUE_MAX of its own.
  const instance = ctx.farm ? instanceName() : undefined;
  const counter = new RequestCounter(ctx.store);
  const renderer = new PiscinaRenderer({
    threads: config.poolThreads,
    timeoutMs: config.renderTimeoutMs,
    memoryMb: config.renderMemoryMb,
    onWorkerError: (err) => log.warn({ err: err.message }, 'render worker failed outside a task'),
  });
  const metrics = new Metrics(instance ?? instanceName(), role, () => ({ threads: renderer.threads, busy: renderer.busy }));
  const board = new SampleBoard(metrics, redis, config.redisPrefix);
  const runner = jobRunner({ store: ctx.store, blobs: ctx.blobs, config, now: ctx.now, renderer, log, onFinished: (kind, outcome, pages) => metrics.job(kind, outcome, pages) });
  const onError = (err: unknown, job: { id: string } | null) => log.error({ err, job: job?.id }, 'job run failed; it is run again');
  const queue: JobQueue = config.redisUrl
    ? new BullQueue(runner, {
        url: config.redisUrl,
        prefix: config.redisPrefix,
        concurrency: role === 'api' ? 0 : config.poolThreads,
        lockMs: config.queueLockMs,
        leaseMs: config.queueLockMs,
        onError,
      })
    : new EmbeddedQueue(runner, { concurrency: config.poolThreads, onError });
  // Whatever is unfinished in the store and not in the queue (a crash, a restart, Redis lost)
  // is queued again: queued jobs from the start, processing ones as a new attempt. Embedded:
  // once at start. Farm: the workers reconcile now and then, since Redis may lose its jobs.
  const reconcileDeps = { store: ctx.store, queue, log };
  if (role !== 'api') await reconcile(reconcileDeps, { atStart: true });
  const reconciler =
    role !== 'api' && queue.shared
      ? setInterval(() => void reconcile(reconcileDeps, { atStart: false }).catch((err: unknown) => log.error({ err }, 'reconcile failed')), config.reconcileIntervalMs)
      : null;
  reconciler?.unref();
  const sweepOnce = () => sweep({ store: ctx.store, blobs: ctx.blobs, now: ctx.now, log });
  let sweeping: Promise<unknown> = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  const sweeper = setInterval(() => {
    sweeping = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  }, config.sweepIntervalMs);
  sweeper.unref();

  const snapshot = async (): Promise<Snapshot> => {
    const now = ctx.now();
    const today = todayRange(now);
    const [samples, counts, usage] = await Promise.all([
      board.samples(),
      ctx.store.generations.unfinishedCounts(),
      ctx.store.billing.usageBetween(null, today.from, today.to),
    ]);
    const figures = {
      waiting: counts.queued,
      active: counts.processing,
      delayed: queue.stats().delayed,
      completedToday: usage.successful_generations,
      failedToday: usage.failed_generations,
    };
    return combine(samples, figures, ctx.farm ? 'farm' : 'embedded', now);
  };
  const api = createApi(
    { store: ctx.store, blobs: ctx.blobs, config, now: ctx.now, limiter, counter, queue, previewLimiter, renderer, quota, instance, metrics, snapshot },
    log,
  );
  const live: LiveFeed = {
    path: LIVE_PATH,
    authorize: (authorization) => (config.adminToken ? adminAuthorized(config.adminToken, authorization) : 'off'),
    message: async () => JSON.stringify({ type: 'snapshot', snapshot: await snapshot() }),
    everyMs: 1000,
    onError: (err) => log.warn({ err }, 'live figures could not be gathered'),
  };
  const http = role === 'worker' ? null : await listen(api, { host: config.host, port: config.port, live });

  let stopping: Promise<void> | null = null;
  const stop = (graceMs = 10_000) =>
    (stopping ??= (async () => {
      clearInterval(sweeper);
      if (reconciler) clearInterval(reconciler);
      await http?.close(graceMs);
      // Running jobs finish if they can within the grace; the rest are run again at the next start.
      await queue.stop(graceMs);
      await sweeping;
      await renderer.close();
      await counter.flush().catch((err: unknown) => log.error({ err }, 'could not flush request counts'));
      await board.stop();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await ctx.close();
    })());
  return { role, instance, metrics, snapshot, api, http, counter, log, queue, renderer, sweep: sweepOnce, stop };
}
