// One contract for both render quota adapters (memory, Redis): one heavy render at a time per
// account, so many a minute and so many a UTC day, refused with when to try again.
import type { Test } from 'tap';
import type { RenderQuota, RenderQuotaOptions } from '../../src/limits/render-quota.ts';

export type RenderQuotaFactory = (opts: RenderQuotaOptions) => Promise<RenderQuota>;

const NOON = new Date('2026-11-23T12:00:00Z');

export function renderQuotaContract(t: Test, name: string, make: RenderQuotaFactory): void {
  t.test(`${name}: one heavy render at a time per account; the slot comes back when released`, async (t) => {
    const q = await make({ perMinute: 5, perDay: 100, leaseMs: 60_000 });
    const release = await q.lease('acc_a');
    t.type(release, 'function', 'the first lease is granted');
    t.equal(await q.lease('acc_a'), null, 'a second one of the account waits');
    t.type(await q.lease('acc_b'), 'function', 'another account has its own slot');
    await release!();
    const again = await q.lease('acc_a');
    t.type(again, 'function', 'released, the slot is free again');
    await again!();
  });

  t.test(`${name}: so many renders a minute; the next is refused for 60 s`, async (t) => {
    const q = await make({ perMinute: 2, perDay: 100, leaseMs: 60_000 });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(await q.admit('acc_m', NOON));
    t.same(seen.slice(0, 2), [{ ok: true }, { ok: true }]);
    t.match(seen[2], { ok: false, retryAfter: 60, message: /at most 2 renders a minute per account/ });
    t.same(await q.admit('acc_other', NOON), { ok: true }, 'another account is not affected');
  });

  t.test(
    `${name}: so many a UTC day; the refusal says it resets at midnight and spends nothing of the minute`,
    async (t) => {
      const q = await make({ perMinute: 3, perDay: 2, leaseMs: 60_000 });
      t.same(await q.admit('acc_d', NOON), { ok: true });
      t.same(await q.admit('acc_d', NOON), { ok: true });
      const refused = await q.admit('acc_d', NOON);
      t.match(refused, {
        ok: false,
        retryAfter: 60,
        quota: { name: 'renders-per-day', limit: 2, window: 86_400, reset: 12 * 3600 },
        message: /at most 2 renders a UTC day per account; the count starts again at 00:00 UTC, in 43200 s/,
      });
      const tomorrow = new Date('2026-11-24T00:00:01Z');
      t.same(
        await q.admit('acc_d', tomorrow),
        { ok: true },
        'a new UTC day counts afresh, and the refused render left the minute one render to spare',
      );
      t.match(await q.admit('acc_d', tomorrow), { ok: false, retryAfter: 60 }, 'now the minute is spent');
    },
  );
}
