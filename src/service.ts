// A running API process: context, limiter, request counter, HTTP server, and the orderly stop
// (stop accepting → drain in-flight requests → flush counters → close Redis and the store).
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { type Api, createApi } from './api/pipeline.ts';
import { type HttpServer, listen } from './api/uws-server.ts';
import { RequestCounter } from './app/request-counter.ts';
import type { Context } from './composition.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './limits/rate-limit.ts';

export interface Service {
  api: Api;
  http: HttpServer;
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
  const rate = { points: config.rateLimitPerMinute, windowSeconds: 60 };
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
  } else limiter = new MemoryRateLimiter(rate);

  const counter = new RequestCounter(ctx.store);
  const api = createApi({ store: ctx.store, blobs: ctx.blobs, config, now: ctx.now, limiter, counter }, log);
  const http = await listen(api, { host: config.host, port: config.port });

  let stopping: Promise<void> | null = null;
  const stop = (graceMs = 10_000) =>
    (stopping ??= (async () => {
      await http.close(graceMs);
      await counter.flush().catch((err: unknown) => log.error({ err }, 'could not flush request counts'));
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await ctx.close();
    })());
  return { api, http, counter, log, stop };
}
