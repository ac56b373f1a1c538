// GET /usage (spec §4 Usage): counters over a UTC date range and the balance, for the key's mode.
import { isUnavailable } from '../../domain/errors.ts';
import { usageRange } from '../../domain/usage-range.ts';
import type { ApiDeps } from '../deps.ts';
import { queryParams } from '../query.ts';
import type { Route } from '../types.ts';

export function usageRoutes(d: ApiDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/usage',
      body: 'none',
      handler: async (req) => {
        const range = usageRange(queryParams(req, ['from', 'to']), req.receivedAt, d.config.usageMaxDays);
        const tenant = req.caller.tenant;
        // This request and the ones before it are in the figures: written first, or, while the
        // store cannot write (a full disk), added from the counts still waiting to be written.
        await d.counter.flush().catch((err: unknown) => {
          if (!isUnavailable(err)) throw err;
        });
        const [u, balance] = await Promise.all([
          d.store.billing.usageBetween(tenant, range.from, range.to),
          d.store.billing.report(tenant, req.receivedAt),
        ]);
        u.requests += d.counter.pending(tenant, range.from, range.to);
        return {
          status: 200,
          json: {
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
          },
        };
      },
    },
  ];
}
