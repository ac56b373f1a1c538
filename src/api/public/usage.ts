// GET /usage (spec §4 Usage): counters over a UTC date range and the balance, for the key's mode.
import { usageReport } from '../../app/usage.ts';
import { usageRange } from '../../domain/usage-range.ts';
import type { ApiDeps } from '../deps.ts';
import { queryParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';

export const usageRoutes = (d: ApiDeps): Routes<'key'> => [
  {
    method: 'GET',
    path: '/usage',
    body: 'none',
    handler: async (req) => {
      const range = usageRange(queryParams(req, ['from', 'to']), req.receivedAt, d.config.usageMaxDays);
      return ok(await usageReport(d, req.caller.tenant, range, req.receivedAt));
    },
  },
];
