// The per-key request limit (spec §8: 10 per minute per key, configurable). One port, two
// adapters over rate-limiter-flexible: memory (embedded) and Redis (farm, with a memory insurance
// limiter that takes over while Redis is unreachable, so an outage never opens the gates).
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes, rateLimiterRedis } from './flexible.ts';

export interface RateDecision {
  allowed: boolean;
  /** Points left in the current window after this request. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly points: number;
  readonly windowSeconds: number;
  consume(key: string): Promise<RateDecision>;
  /** Gives back a point consumed for something that then did not happen. */
  refund(key: string): Promise<void>;
}

/** The dashboard's doors: tries per source address, and sign-ins per email. */
export interface SignInLimits {
  perAddress: RateLimiter;
  perEmail: RateLimiter;
}

interface Flexible {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  reward(key: string, points?: number): Promise<RateLimiterRes>;
}

function decision(res: RateLimiterRes, allowed: boolean): RateDecision {
  return {
    allowed,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

abstract class FlexibleRateLimiter implements RateLimiter {
  protected constructor(
    private readonly limiter: Flexible,
    readonly points: number,
    readonly windowSeconds: number,
  ) {}

  async consume(key: string): Promise<RateDecision> {
    try {
      return decision(await this.limiter.consume(key), true);
    } catch (err) {
      // rate-limiter-flexible rejects a blocked key with a RateLimiterRes, not an Error.
      if (err instanceof RateLimiterRes) return decision(err, false);
      throw err;
    }
  }

  async refund(key: string): Promise<void> {
    await this.limiter.reward(key, 1);
  }
}

export interface RateLimitOptions {
  points: number;
  windowSeconds: number;
}

export class MemoryRateLimiter extends FlexibleRateLimiter {
  constructor(opts: RateLimitOptions) {
    super(
      new RateLimiterMemory({ points: opts.points, duration: opts.windowSeconds }),
      opts.points,
      opts.windowSeconds,
    );
  }
}

export class RedisRateLimiter extends FlexibleRateLimiter {
  constructor(opts: RateLimitOptions & { client: Redis; keyPrefix: string }) {
    const RateLimiterRedis = rateLimiterRedis();
    const limiter = new RateLimiterRedis({
      storeClient: opts.client,
      keyPrefix: opts.keyPrefix,
      points: opts.points,
      duration: opts.windowSeconds,
      // Without this, ioredis queues commands while it reconnects and requests hang.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points: opts.points, duration: opts.windowSeconds }),
    });
    super(limiter, opts.points, opts.windowSeconds);
  }
}
