// The admin API's jobs: every account's, filtered; a cancel of any of them.
import { cancelAnyJob, listJobs } from '../../app/admin.ts';
import type { ApiDeps } from '../deps.ts';
import { jobFilters, MODES, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { adminJobView } from '../views.ts';

export const jobRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: '/jobs',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor, rest } = listParams(req, ['status', 'account', 'mode', 'kind']);
      const page = await listJobs(d, {
        limit,
        cursor,
        accountId: rest.account,
        mode: rest.mode === undefined ? undefined : oneOf('mode', rest.mode, MODES),
        ...jobFilters(rest),
      });
      const { waits, ...listed } = page;
      return ok({ ...listed, data: page.data.map((j) => adminJobView(j, waits.get(j.id))) });
    },
  },
  {
    method: 'POST',
    path: '/jobs/{id}/cancel',
    body: 'none',
    handler: async (req) => ok(adminJobView(await cancelAnyJob(d, req.params.id!))),
  },
];
