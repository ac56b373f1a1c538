// The admin API's accounts (DESIGN §8): list, create, show, top up, change plan. The same
// use-cases as `scriptorium admin account …`.
import { createAccount, listAccounts, setPlan, showAccount, topUp } from '../../app/admin.ts';
import { planNames } from '../../app/reads.ts';
import { invalid } from '../../domain/errors.ts';
import { PACK_MAX_SHEETS, PACK_MIN_SHEETS } from '../../domain/plans.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf, wholeNumber } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { accountSummaryView } from '../views.ts';

export const accountRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: '/accounts',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor } = listParams(req);
      const page = await listAccounts(d, { limit, ...(cursor ? { cursor } : {}) });
      return ok({ ...page, data: page.data.map(accountSummaryView) });
    },
  },
  {
    method: 'POST',
    path: '/accounts',
    body: 'json',
    handler: async (req) => {
      const b = req.json;
      allowOnly(b, ['name', 'plan', 'period']);
      if (typeof b.name !== 'string') throw invalid('name', 'a string of 1-120 characters', b.name);
      if (b.plan !== undefined && typeof b.plan !== 'string') throw invalid('plan', 'a plan name', b.plan);
      const period = b.period === undefined ? undefined : wholeNumber('period', b.period, 7, 30);
      return ok(
        await createAccount(d, {
          name: b.name,
          ...(b.plan ? { plan: b.plan } : {}),
          ...(period ? { period } : {}),
        }),
        201,
      );
    },
  },
  {
    method: 'GET',
    path: '/accounts/{id}',
    body: 'none',
    handler: async (req) => ok(await showAccount(d, req.params.id!)),
  },
  {
    method: 'POST',
    path: '/accounts/{id}/topups',
    body: 'json',
    handler: async (req) => {
      const b = req.json;
      allowOnly(b, ['sheets', 'mode']);
      const sheets = wholeNumber('sheets', b.sheets, PACK_MIN_SHEETS, PACK_MAX_SHEETS);
      const mode = oneOf('mode', b.mode, MODES, 'live');
      return ok(await topUp(d, { account: req.params.id!, sheets, mode }));
    },
  },
  {
    method: 'POST',
    path: '/accounts/{id}/plan',
    body: 'json',
    handler: async (req) => {
      const b = req.json;
      allowOnly(b, ['plan', 'period']);
      const plan = oneOf('plan', b.plan, planNames(d));
      const period = b.period === undefined ? undefined : wholeNumber('period', b.period, 7, 30);
      return ok(await setPlan(d, { account: req.params.id!, plan, ...(period ? { period } : {}) }));
    },
  },
];
