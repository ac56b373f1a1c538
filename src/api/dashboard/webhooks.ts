// The dashboard's webhook endpoints (owners only: they receive the account's events), a test
// event, and the delivery log.
import {
  addWebhook,
  endpointView,
  listDeliveries,
  removeWebhook,
  sendTestEvent,
  tenantWebhooks,
} from '../../app/webhooks.ts';
import { invalid } from '../../domain/errors.ts';
import { WEBHOOK_LIMITS } from '../../domain/webhooks.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { ownerTenant } from './account.ts';

export const webhookRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/webhooks',
    body: 'none',
    handler: async (req) =>
      ok({ data: await tenantWebhooks(d, ownerTenant(req)), max: WEBHOOK_LIMITS.endpointsPerAccount }),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/webhooks',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['mode', 'url', 'events', 'description']);
      const tenant = ownerTenant(req, oneOf('mode', req.json.mode, MODES));
      const description = req.json.description ?? '';
      if (typeof description !== 'string' || description.length > 200)
        throw invalid('description', 'text of at most 200 characters', description);
      const made = await addWebhook(d, {
        account: tenant.accountId,
        mode: tenant.mode,
        url: req.json.url,
        events: req.json.events,
        description: description.trim(),
      });
      return ok(made, 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/webhooks/{hook}/test',
    body: 'none',
    handler: async (req) => ok(await sendTestEvent(d, ownerTenant(req), req.params.hook!), 202),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/webhooks/{hook}/delete',
    body: 'none',
    handler: async (req) => ok(endpointView(await removeWebhook(d, req.params.hook!, ownerTenant(req)))),
  },
  {
    method: 'GET',
    path: '/accounts/{account}/webhooks/deliveries',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor, rest } = listParams(req, ['mode', 'endpoint']);
      const tenant = ownerTenant(req, oneOf('mode', rest.mode, MODES));
      return ok(
        await listDeliveries(d, {
          limit,
          ...(cursor ? { cursor } : {}),
          accountId: tenant.accountId,
          mode: tenant.mode,
          ...(rest.endpoint ? { endpointId: rest.endpoint } : {}),
        }),
      );
    },
  },
];
