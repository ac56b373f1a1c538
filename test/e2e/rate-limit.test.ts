// The per-key limit over HTTP: 429, its headers, no side effect, still counted; embedded, and
// with Redis shared by two API instances.
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { RedisRateLimiter } from '../../src/limits/rate-limit.ts';
import { png } from '../helpers/images.ts';
import { call, startTestServer, type TestServer } from '../helpers/server.ts';
import { REDIS_URL, redisPrefix, unavailable } from '../helpers/services.ts';

async function httpLimits(t: Test, server: TestServer, label: string) {
  const a = await server.tenant();
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const r = await call(t, server, 'GET', '/templates', { key: a.live });
    statuses.push(r.status);
    t.equal(r.headers.get('ratelimit-policy'), '"per-key";q=3;w=60', `${label}: the policy`);
    t.match(
      r.headers.get('ratelimit'),
      new RegExp(`^"per-key";r=${2 - i};t=\\d+$`),
      `${label}: what is left`,
    );
  }
  t.same(statuses, [200, 200, 200]);
  const limited = await call(t, server, 'POST', '/assets', {
    key: a.live,
    raw: png(4, 4),
    headers: { 'content-type': 'image/png' },
  });
  t.equal(limited.status, 429, `${label}: the fourth request`);
  t.equal(limited.body.error.code, 'RATE_LIMIT_EXCEEDED');
  t.equal(limited.headers.get('retry-after'), '60');
  t.match(limited.headers.get('ratelimit'), /^"per-key";r=0;t=\d+$/);
  t.equal(limited.body.error.reason, 'per-key', `${label}: the reason names the key's limit`);
  t.same(
    await server.ctx.store.assets.usage(a.accountId),
    { count: 0, bytes: 0 },
    `${label}: a 429 has no side effect`,
  );
  t.equal(
    (await call(t, server, 'GET', '/templates', { key: a.test })).status,
    200,
    `${label}: another key of the account has its own budget`,
  );
  await server.service.counter.flush();
  const used = await server.ctx.store.billing.usageBetween(
    { accountId: a.accountId, mode: 'live' },
    '2000-01-01',
    '2999-01-01',
  );
  t.equal(used.requests, 4, `${label}: the 429 still counts in requests`);
  return a;
}

t.test('HTTP, embedded limits', async (t) => {
  await httpLimits(t, await startTestServer(t, { rateLimitPerMinute: 3 }), 'memory');
});

t.test('HTTP, Redis limits shared by two API processes', { skip: await unavailable('redis') }, async (t) => {
  const prefix = redisPrefix(t);
  const one = await startTestServer(t, { rateLimitPerMinute: 3, redisUrl: REDIS_URL, redisPrefix: prefix });
  const a = await httpLimits(t, one, 'redis');
  const keyId = (await one.ctx.store.accounts.findKey(a.live))!.id;
  const client = new Redis(REDIS_URL);
  t.teardown(() => client.quit());
  t.ok((await client.keys(`${prefix}*`)).length > 0, 'the counters are in Redis');
  // Another API instance on the same Redis sees the same per-key budget, already spent.
  const probe = new RedisRateLimiter({ points: 3, windowSeconds: 60, client, keyPrefix: `${prefix}rl` });
  t.equal(
    (await probe.consume(keyId)).allowed,
    false,
    'the budget lives in Redis, where any instance sees it spent',
  );
});
