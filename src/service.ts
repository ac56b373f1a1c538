// A running process: context, limiters, request counter, HTTP server, the job queue on the render
// pool with the sweeper, and the orderly stop (stop accepting → drain in-flight requests → let
// running jobs finish → flush counters → close the pool, Redis and the store).
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { type Api, createApi } from './api/pipeline.ts';
import { type HttpServer, listen } from './api/uws-server.ts';
import { jobRunner, sweep } from './app/generations.ts';
import { RenderPool } from './app/render-pool.ts';
import { RequestCounter } from './app/request-counter.ts';
import type { Context } from './composition.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './limits/rate-limit.ts';
import { MemoryRenderQuota, type RenderQuota, RedisRenderQuota } from './limits/render-quota.ts';
import { EmbeddedQueue } from './queue/embedded.ts';
import type { JobQueue } from './queue/types.ts';

export interface Service {
  api: Api;
  http: HttpServer;
  queue: JobQueue;
  pool: RenderPool;
  /** Runs the sweeper once now (it also runs every SWEEP_INTERVAL_MS). */
  sweep(): Promise<{ expired: number; orphans: number }>;
  counter: RequestCounter;
  log: Logger;
  /** Idempotent; resolves when everything is closed. */
  stop(graceMs?: number): Promise<void>;
}

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'scriptorium' } }, pino.destination(2));
}

export async function startService(ctx: Context, opts: { log?: Logger } = {}): Promise<Service> {
  const { config } = ctx;
  const log = opts.log ?? createLogger(config.logLevel);
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
    await redis.connect().catch((err: Error) => log.warn({ err: err.message }, 'redis unavailable at start'));
    limiter = new RedisRateLimiter({ ...rate, client: redis, keyPrefix: `${config.redisPrefix}rl` });
    previewLimiter = new RedisRateLimiter({ ...previews, client: redis, keyPrefix: `${config.redisPrefix}previews` });
    quota = new RedisRenderQuota(redis, config.redisPrefix, renders);
  } else {
    limiter = new MemoryRateLimiter(rate);
    previewLimiter = new MemoryRateLimiter(previews);
    quota = new MemoryRenderQuota(renders);
  }

  const counter = new RequestCounter(ctx.store);
  const pool = new RenderPool({
    threads: config.poolThreads,
    timeoutMs: config.renderTimeoutMs,
    memoryMb: config.renderMemoryMb,
    onWorkerError: (err) => log.warn({ err: err.message }, 'render worker failed outside a task'),
  });
  const runner = jobRunner({ store: ctx.store, blobs: ctx.blobs, config, now: ctx.now, pool, log });
  const queue = new EmbeddedQueue(runner, {
    concurrency: config.poolThreads,
    onError: (err, job) => log.error({ err, job: job.id }, 'job run failed; it is run again at the next start'),
  });
  // Whatever a previous run left unfinished (a crash, a restart) is run again: queued jobs from
  // the start, processing ones as a new attempt.
  for (const job of await ctx.store.generations.unfinished()) queue.enqueue(job);
  const sweepOnce = () => sweep({ store: ctx.store, blobs: ctx.blobs, now: ctx.now, log });
  let sweeping: Promise<unknown> = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  const sweeper = setInterval(() => {
    sweeping = sweepOnce().catch((err: unknown) => log.error({ err }, 'sweep failed'));
  }, config.sweepIntervalMs);
  sweeper.unref();

  const api = createApi({ store: ctx.store, blobs: ctx.blobs, config, now: ctx.now, limiter, counter, queue, previewLimiter, pool, quota }, log);
  const http = await listen(api, { host: config.host, port: config.port });

  let stopping: Promise<void> | null = null;
  const stop = (graceMs = 10_000) =>
    (stopping ??= (async () => {
      clearInterval(sweeper);
      await http.close(graceMs);
      // Running jobs finish if they can within the grace; the rest are run again at the next start.
      await queue.stop(graceMs);
      await sweeping;
      await pool.close();
      await counter.flush().catch((err: unknown) => log.error({ err }, 'could not flush request counts'));
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await ctx.close();
    })());
  return { api, http, counter, log, queue, pool, sweep: sweepOnce, stop };
}
