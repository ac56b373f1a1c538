// The render quota contract over each of its backends (memory, Redis), and what only Redis has:
// a lease lapses by itself, so a crashed process cannot keep an account's slot.
import { Redis } from 'ioredis';
import t from 'tap';
import { RedisRenderQuota } from '../../src/limits/render-quota.ts';
import { REDIS_URL, redisPrefix, unavailable } from '../helpers/services.ts';
import { backends, eachBackend } from './backends.ts';
import { renderQuotaContract } from './render-quota.ts';

await eachBackend(t, backends.renderQuota, renderQuotaContract);

t.test(
  'redis: a lease not given back lapses after leaseMs; a stale holder cannot free a newer lease',
  { skip: await unavailable('redis') },
  async (t) => {
    const client = new Redis(REDIS_URL);
    t.teardown(() => client.quit());
    const q = new RedisRenderQuota(client, redisPrefix(t, 'lease'), {
      perMinute: 5,
      perDay: 100,
      leaseMs: 150,
    });
    const stale = await q.lease('acc_crash');
    t.type(stale, 'function');
    t.equal(await q.lease('acc_crash'), null, 'held');
    await new Promise((r) => setTimeout(r, 300));
    const fresh = await q.lease('acc_crash');
    t.type(fresh, 'function', 'lapsed: the slot is free again');
    await stale!();
    t.equal(await q.lease('acc_crash'), null, 'the stale release did not free the newer lease');
    await fresh!();
  },
);
