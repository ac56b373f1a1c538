// The dashboard's usage page and job list, with each job's PDF or preview images.
import type { Logger } from 'pino';
import { jobsPage } from '../../app/reads.ts';
import { usageByDay, usageReport } from '../../app/usage.ts';
import { usageRange } from '../../domain/usage-range.ts';
import type { ApiDeps } from '../deps.ts';
import { jobFilters, MODES, oneOf } from '../input.ts';
import { jobOutputs } from '../outputs.ts';
import { listParams, queryParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { jobView } from '../views.ts';
import { tenantOf } from './account.ts';

export function jobRoutes(d: ApiDeps, log: Logger): Routes<'session'> {
  const outputs = jobOutputs(d, log);
  return [
    {
      method: 'GET',
      path: '/accounts/{account}/usage',
      body: 'none',
      handler: async (req) => {
        const q = queryParams(req, ['mode', 'from', 'to']);
        const tenant = tenantOf(req, oneOf('mode', q.mode, MODES));
        const range = usageRange({ from: q.from, to: q.to }, req.receivedAt, d.config.usageMaxDays);
        const [report, days] = await Promise.all([
          usageReport(d, tenant, range, req.receivedAt),
          usageByDay(d, tenant, range),
        ]);
        return ok({ ...report, days });
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['mode', 'status', 'kind']);
        const tenant = tenantOf(req, oneOf('mode', rest.mode, MODES));
        const page = await jobsPage(d, tenant, { limit, cursor, ...jobFilters(rest) });
        return ok({ ...page, data: page.data.map(jobView) });
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs/{job}/download',
      body: 'none',
      handler: (req) => outputs.download(tenantOf(req), req.params.job!),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs/{job}/preview',
      body: 'none',
      handler: (req) => outputs.preview(tenantOf(req), req.params.job!),
    },
  ];
}
