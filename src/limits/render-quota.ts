// Per-account limits of synchronous renders (spec §8, Render rate): one active heavy (PNG)
// render at a time, 5 accepted renders a minute, 100 a UTC day. The day's counter is keyed by
// the date, so it starts again at 00:00 UTC. Memory in embedded mode; Redis in a farm, where the
// heavy-render slot is a lease (SET NX PX, released only by its holder).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaState } from '../domain/errors.ts';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './rate-limit.ts';

/**
 * A refusal waits `retryAfter` seconds (60, as every 429 of the spec says); a day's quota also
 * says when it truly resets (`quota`), for the RateLimit fields.
 */
export type Admission = { ok: true } | { ok: false; retryAfter: number; message: string; quota: QuotaState };

export interface RenderQuota {
  /** The account's heavy-render slot, or null while another render holds it; call the result to give it back. */
  lease(accountId: string): Promise<(() => Promise<void>) | null>;
  /** Spends one render of the minute and of the day, or neither. */
  admit(accountId: string, now: Date): Promise<Admission>;
}

export interface RenderQuotaOptions {
  perMinute: number;
  perDay: number;
  /** Longest a lease may be held (a render's time limit and some), so a crash cannot keep it. */
  leaseMs: number;
}

const secondsToMidnight = (now: Date) =>
  Math.max(
    1,
    Math.ceil(
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000,
    ),
  );

abstract class Quota implements RenderQuota {
  constructor(
    private readonly minute: RateLimiter,
    private readonly day: RateLimiter,
  ) {}

  abstract lease(accountId: string): Promise<(() => Promise<void>) | null>;

  async admit(accountId: string, now: Date): Promise<Admission> {
    const m = await this.minute.consume(accountId);
    if (!m.allowed) {
      return {
        ok: false,
        retryAfter: 60,
        quota: { name: 'renders-per-minute', limit: this.minute.points, window: 60, reset: m.resetSeconds },
        message: `at most ${this.minute.points} renders a minute per account; wait 60 s`,
      };
    }
    const d = await this.day.consume(`${accountId}:${now.toISOString().slice(0, 10)}`);
    if (!d.allowed) {
      await this.minute.refund(accountId);
      const wait = secondsToMidnight(now);
      return {
        ok: false,
        retryAfter: 60,
        quota: { name: 'renders-per-day', limit: this.day.points, window: 86_400, reset: wait },
        message: `at most ${this.day.points} renders a UTC day per account; the count starts again at 00:00 UTC, in ${wait} s`,
      };
    }
    return { ok: true };
  }
}

/** Heavy-render slots of this process. */
class LocalSlots {
  private readonly active = new Set<string>();

  lease(accountId: string): (() => Promise<void>) | null {
    if (this.active.has(accountId)) return null;
    this.active.add(accountId);
    return async () => {
      this.active.delete(accountId);
    };
  }
}

export class MemoryRenderQuota extends Quota {
  private readonly slots = new LocalSlots();

  constructor(opts: RenderQuotaOptions) {
    super(
      new MemoryRateLimiter({ points: opts.perMinute, windowSeconds: 60 }),
      new MemoryRateLimiter({ points: opts.perDay, windowSeconds: 86_400 }),
    );
  }

  async lease(accountId: string) {
    return this.slots.lease(accountId);
  }
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisRenderQuota extends Quota {
  private readonly local = new LocalSlots();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly opts: RenderQuotaOptions,
  ) {
    super(
      new RedisRateLimiter({
        points: opts.perMinute,
        windowSeconds: 60,
        client: redis,
        keyPrefix: `${prefix}renders-minute`,
      }),
      new RedisRateLimiter({
        points: opts.perDay,
        windowSeconds: 86_400,
        client: redis,
        keyPrefix: `${prefix}renders-day`,
      }),
    );
  }

  /**
   * The farm-wide lease; while Redis does not answer (gone, or frozen past the client's command
   * timeout), this process's own slot, as the rate limits fall back to their memory insurance.
   */
  async lease(accountId: string) {
    const key = `${this.prefix}render-lease:${accountId}`;
    const token = randomUUID();
    let taken: string | null;
    try {
      taken = await this.redis.set(key, token, 'PX', this.opts.leaseMs, 'NX');
    } catch {
      return this.local.lease(accountId);
    }
    if (taken !== 'OK') return null;
    return async () => {
      // A release that cannot reach Redis leaves the lease to lapse on its own (PX).
      await this.redis.eval(RELEASE, 1, key, token).catch(() => {});
    };
  }
}
