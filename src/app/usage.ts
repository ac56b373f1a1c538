// Usage over a range of UTC days (spec §4 Usage): the counters, the balance and, for the
// dashboard's chart, each day's pages and sheets. GET /usage and the dashboard both answer from
// here. Requests counted but not yet written (a full disk) are added from the request counter.
import { isUnavailable } from '../domain/errors.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { UsageRange } from '../domain/usage-range.ts';
import type { Store } from '../store/index.ts';
import type { RequestCounter } from './request-counter.ts';

export interface UsageDeps {
  store: Store;
  counter: RequestCounter;
}

/** The body of GET /usage for this tenant and range. */
export async function usageReport(d: UsageDeps, tenant: Tenant, range: UsageRange, now: Date) {
  // This request and the ones before it are in the figures: written first, or, while the store
  // cannot write, added from the counts still waiting to be written.
  await d.counter.flush().catch((err: unknown) => {
    if (!isUnavailable(err)) throw err;
  });
  const [u, balance] = await Promise.all([
    d.store.billing.usageBetween(tenant, range.from, range.to),
    d.store.billing.report(tenant, now),
  ]);
  u.requests += d.counter.pending(tenant, range.from, range.to);
  return {
    mode: tenant.mode,
    period: { from: range.from, to: range.to, days: range.days },
    requests: u.requests,
    generations: u.generations,
    successfulGenerations: u.successful_generations,
    failedGenerations: u.failed_generations,
    cancelledGenerations: u.cancelled_generations,
    pages: u.pages,
    creditsSpent: u.credits_milli / 1000,
    renders: u.renders,
    svgRenders: u.svg_renders,
    pngRenders: u.png_renders,
    previews: u.previews,
    balance,
  };
}

/** Each day of the range that has any use: pages, sheets spent and jobs (the dashboard's chart). */
export async function usageByDay(d: UsageDeps, tenant: Tenant, range: UsageRange) {
  const days = await d.store.billing.usageDays(tenant, range.from, range.to);
  return days.map((r) => ({
    day: r.day,
    pages: r.pages,
    sheets: r.credits_milli / 1000,
    generations: r.generations,
    failedGenerations: r.failed_generations,
    requests: r.requests,
  }));
}
