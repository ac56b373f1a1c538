// The admin API's plan requests: every account's, filtered by status or account, and an
// operator's decision on one (approve: the plan changes at once; refuse: with a reason).
import { decidePlanRequest, listPlanRequests, PLAN_REQUEST_STATUSES } from '../../app/plan-requests.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { accountView, planRequestView } from '../views.ts';

export const planRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: '/plan-requests',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor, rest } = listParams(req, ['status', 'account']);
      const page = await listPlanRequests(d, {
        limit,
        ...(cursor !== undefined ? { cursor } : {}),
        ...(rest.account !== undefined ? { accountId: rest.account } : {}),
        ...(rest.status !== undefined ? { status: oneOf('status', rest.status, PLAN_REQUEST_STATUSES) } : {}),
      });
      return ok({ ...page, data: page.data.map(planRequestView) });
    },
  },
  ...(['approve', 'refuse'] as const).map((decision) => ({
    method: 'POST' as const,
    path: `/plan-requests/{id}/${decision}`,
    body: 'json' as const,
    handler: async (req: Parameters<Routes<'admin'>[number]['handler']>[0]) => {
      allowOnly(req.json, decision === 'refuse' ? ['reason'] : ['note']);
      const done = await decidePlanRequest(d, req.params.id!, {
        decision,
        note: decision === 'refuse' ? req.json.reason : req.json.note,
      });
      return ok({
        request: planRequestView(done.request),
        ...(done.account ? { account: accountView(done.account) } : {}),
      });
    },
  })),
];
