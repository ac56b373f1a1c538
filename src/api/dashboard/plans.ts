// The dashboard's plan requests (docs/decisions.md, "A hand for every plan"): the plans there
// are and the account's own, its requests with their state, and an owner's request for a plan
// (or its withdrawal) for an operator to decide.
import { planChoices, requestPlan, withdrawPlanRequest } from '../../app/plan-requests.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly } from '../input.ts';
import { ok, type Routes } from '../types.ts';
import { planRequestView } from '../views.ts';
import { callerOf, ownerTenant } from './account.ts';

export const planRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/plan-requests',
    body: 'none',
    handler: async (req) => {
      const caller = await callerOf(d, req, 'live');
      const { requests, ...choices } = await planChoices(d, caller.account);
      return ok({ ...choices, data: requests.map(planRequestView) });
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/plan-requests',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['plan', 'period', 'note']);
      const tenant = ownerTenant(req, 'live');
      const made = await requestPlan(d, {
        accountId: tenant.accountId,
        userId: req.session.user.id,
        plan: req.json.plan,
        period: req.json.period,
        note: req.json.note,
      });
      return ok(planRequestView(made), 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/plan-requests/{request}/withdraw',
    body: 'none',
    handler: async (req) => {
      const tenant = ownerTenant(req, 'live');
      return ok(planRequestView(await withdrawPlanRequest(d, tenant.accountId, req.params.request!)));
    },
  },
];
