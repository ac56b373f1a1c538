// The rate limiter contract over each of its backends (memory, Redis), and what only Redis has:
// the memory insurance limiter that answers while Redis is away.
import { Redis } from 'ioredis';
import t from 'tap';
import { RedisRateLimiter } from '../../src/limits/rate-limit.ts';
import { backends, eachBackend } from './backends.ts';
import { rateLimiterContract } from './rate-limit.ts';

await eachBackend(t, backends.rateLimiter, rateLimiterContract);

t.test('redis down: the memory insurance limiter still limits', async (t) => {
  const dead = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  dead.on('error', () => {});
  t.teardown(() => dead.disconnect());
  const l = new RedisRateLimiter({ points: 2, windowSeconds: 60, client: dead, keyPrefix: 'x' });
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push((await l.consume('k')).allowed);
  t.same(seen, [true, true, false]);
});
