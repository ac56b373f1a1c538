// The metrics board on Redis: every instance's sample under a key that lapses, summed by any
// API instance; a stopped instance drops out and leaves nothing behind.
import { Redis } from 'ioredis';
import t from 'tap';
import { combine, Metrics, SampleBoard } from '../../src/metrics/index.ts';
import { REDIS_URL, redisPrefix, unavailable } from '../helpers/services.ts';

const queue = { waiting: 3, active: 2, delayed: 1, retrying: 0, completedToday: 40, failedToday: 1 };

t.test(
  'samples meet in Redis; a stopped instance drops out',
  { skip: await unavailable('redis') },
  async (t) => {
    const prefix = redisPrefix(t, 'metrics');
    const redis = new Redis(REDIS_URL);
    t.teardown(() => redis.quit());
    const a = new Metrics('a', 'api', () => ({ threads: 0, busy: 0 }));
    const b = new Metrics('b', 'worker', () => ({ threads: 2, busy: 1 }));
    b.job('pdf', 'completed', 3);
    const boardA = new SampleBoard(a, redis, prefix);
    const boardB = new SampleBoard(b, redis, prefix);
    let seen: string[] = [];
    for (let i = 0; i < 50 && seen.length < 2; i++) {
      seen = (await boardA.samples()).map((s) => s.instance);
      await new Promise((r) => setTimeout(r, 50));
    }
    t.same(seen.sort(), ['a', 'b'], 'each instance sees the other');
    t.equal(
      combine(await boardA.samples(), queue, 'farm', new Date()).perMinute.pages,
      3,
      "the worker's pages reach the API's snapshot",
    );
    await boardB.stop();
    t.same(
      (await boardA.samples()).map((s) => s.instance),
      ['a'],
      'a stopped instance is gone',
    );
    await boardA.stop();
    t.same(await redis.keys(`${prefix}*`), [], 'nothing left in Redis');
  },
);
