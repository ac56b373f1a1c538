// The per-key limit: the two adapters under one contract, Redis with its memory insurance, and
// the HTTP behaviour (429, headers, no side effect, still counted), embedded and with Redis.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { MemoryRateLimiter, RedisRateLimiter } from '../src/limits/rate-limit.ts';
import { rateLimiterContract } from './contract/rate-limit.ts';
import { png } from './helpers/images.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const check = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
check.on('error', () => {});
const redisUp = await check.connect().then(
  () => true,
  () => false,
);
check.disconnect();
const noRedis = !redisUp && !process.env.CI && 'no Redis server answers';

/** A prefix of our own, and every key under it deleted at the end. */
function redisPrefix(t: Test): string {
  const prefix = `scriptorium-test-${randomBytes(6).toString('hex')}:`;
  t.teardown(async () => {
    const r = new Redis(REDIS_URL);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
  });
  return prefix;
}

rateLimiterContract(t, 'memory', async (points) => new MemoryRateLimiter({ points, windowSeconds: 60 }));

t.test('redis', { skip: noRedis }, async (t) => {
  const client = new Redis(REDIS_URL);
  t.teardown(() => client.quit());
  const prefix = redisPrefix(t);
  let n = 0;
  rateLimiterContract(t, 'redis', async (points) => new RedisRateLimiter({ points, windowSeconds: 60, client, keyPrefix: `${prefix}c${n++}` }));
});

t.test('redis down: the memory insurance limiter still limits', async (t) => {
  const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  dead.on('error', () => {});
  t.teardown(() => dead.disconnect());
  const l = new RedisRateLimiter({ points: 2, windowSeconds: 60, client: dead, keyPrefix: 'x' });
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push((await l.consume('k')).allowed);
  t.same(seen, [true, true, false]);
});

async function httpLimits(t: Test, server: TestServer, label: string) {
  const a = await server.tenant();
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const r = await call(t, server, 'GET', '/templates', { key: a.live });
    statuses.push(r.status);
    t.equal(r.headers.get('ratelimit-policy'), '"per-key";q=3;w=60', `${label}: the policy`);
    t.match(r.headers.get('ratelimit'), new RegExp(`^"per-key";r=${2 - i};t=\\d+$`), `${label}: what is left`);
  }
  t.same(statuses, [200, 200, 200]);
  const limited = await call(t, server, 'POST', '/assets', { key: a.live, raw: png(4, 4), headers: { 'content-type': 'image/png' } });
  t.equal(limited.status, 429, `${label}: the fourth request`);
  t.equal(limited.body.error.code, 'RATE_LIMIT_EXCEEDED');
  t.equal(limited.headers.get('retry-after'), '60');
  t.match(limited.headers.get('ratelimit'), /^"per-key";r=0;t=\d+$/);
  t.same(await server.ctx.store.assets.usage(a.accountId), { count: 0, bytes: 0 }, `${label}: a 429 has no side effect`);
  t.equal((await call(t, server, 'GET', '/templates', { key: a.test })).status, 200, `${label}: another key of the account has its own budget`);
  await server.service.counter.flush();
  const used = await server.ctx.store.billing.usageBetween({ accountId: a.accountId, mode: 'live' }, '2000-01-01', '2999-01-01');
  t.equal(used.requests, 4, `${label}: the 429 still counts in requests`);
  return a;
}

t.test('HTTP, embedded limits', async (t) => {
  await httpLimits(t, await startTestServer(t, { rateLimitPerMinute: 3 }), 'memory');
});

t.test('HTTP, Redis limits shared by two API processes', { skip: noRedis }, async (t) => {
  const prefix = redisPrefix(t);
  const one = await startTestServer(t, { rateLimitPerMinute: 3, redisUrl: REDIS_URL, redisPrefix: prefix });
  const a = await httpLimits(t, one, 'redis');
  const keyId = (await one.ctx.store.accounts.findKey(a.live))!.id;
  const client = new Redis(REDIS_URL);
  t.teardown(() => client.quit());
  t.ok((await client.keys(`${prefix}*`)).length > 0, 'the counters are in Redis');
  // Another API instance on the same Redis sees the same per-key budget, already spent.
  const probe = new RedisRateLimiter({ points: 3, windowSeconds: 60, client, keyPrefix: `${prefix}rl` });
  t.equal((await probe.consume(keyId)).allowed, false, 'the budget lives in Redis, where any instance sees it spent');
});
