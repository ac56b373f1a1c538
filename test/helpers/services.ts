// The one way tests find the machine's services: where PostgreSQL and Redis answer, whether
// they do, and what a test does when one does not (in CI a failure; elsewhere a loud skip).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Test } from 'tap';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type Service = 'postgres' | 'redis';

const answers: Record<Service, () => Promise<boolean>> = {
  async postgres() {
    // A server that is down refuses at once; a slow answer on a busy machine is still an answer.
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  },
  async redis() {
    const probe = new Redis(REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  },
};

const seen = new Map<Service, Promise<boolean>>();

/** Whether the service answers (asked once per test process). */
export function serviceAnswers(service: Service): Promise<boolean> {
  let answer = seen.get(service);
  if (!answer) {
    answer = answers[service]();
    seen.set(service, answer);
  }
  return answer;
}

/**
 * False when the service answers; otherwise a skip reason, said loudly. In CI a missing
 * service is an error: the tests that need it must run there.
 */
export async function unavailable(service: Service): Promise<false | string> {
  if (await serviceAnswers(service)) return false;
  const where = service === 'redis' ? REDIS_URL : PG_ADMIN_URL;
  if (process.env.CI)
    throw new Error(`${service} does not answer at ${where}: CI must run the tests that need it`);
  console.error(`\n!!! ${service} does not answer at ${where}: the tests that need it are SKIPPED !!!\n`);
  return `no ${service} server answers`;
}

/** A Redis key prefix of the test's own; every key under it is deleted when the test ends. */
export function redisPrefix(t: Test, name = 'test'): string {
  const prefix = `scriptorium-${name}-${process.pid}-${randomBytes(4).toString('hex')}:`;
  t.teardown(async () => {
    if (!(await serviceAnswers('redis'))) return;
    const r = new Redis(REDIS_URL);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
  });
  return prefix;
}
