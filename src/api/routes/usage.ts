// GET /usage (spec §4 Usage): counters over a UTC date range and the balance, for the key's mode.
import { usageReport } from '../../app/usage.ts';
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
        return { status: 200, json: await usageReport(d, req.caller.tenant, range, req.receivedAt) };
      },
    },
  ];
}
