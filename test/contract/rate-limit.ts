// One contract for both rate limiter adapters (memory, Redis): a function of a factory.
import type { Test } from 'tap';
import type { RateLimiter } from '../../src/limits/rate-limit.ts';

export type LimiterFactory = (points: number) => Promise<RateLimiter>;

export function rateLimiterContract(t: Test, name: string, make: LimiterFactory): void {
  t.test(`${name}: allows the points of the window, then refuses`, async (t) => {
    const l = await make(3);
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await l.consume('key_a'));
    t.same(
      seen.map((d) => d.allowed),
      [true, true, true, false, false],
    );
    t.same(
      seen.map((d) => d.remaining),
      [2, 1, 0, 0, 0],
    );
    for (const d of seen)
      t.ok(d.resetSeconds >= 1 && d.resetSeconds <= 60, `resets within the window (${d.resetSeconds} s)`);
    t.equal((await l.consume('key_b')).allowed, true, 'keys have their own budgets');
  });

  t.test(`${name}: parallel requests never pass the limit`, async (t) => {
    const l = await make(10);
    const results = await Promise.all(Array.from({ length: 40 }, () => l.consume('key_race')));
    t.equal(results.filter((d) => d.allowed).length, 10);
  });
}
