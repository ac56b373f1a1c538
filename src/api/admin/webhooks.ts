// The admin API's webhook routes: an account's endpoints, the delivery log with each try, and a
// redelivery. The same use-cases as `scriptorium admin webhook …`.
import { endpointsOf, type DeliveryStatus } from '../../app/reads.ts';
import {
  addWebhook,
  endpointView,
  listDeliveries,
  redeliver,
  removeWebhook,
  showDelivery,
} from '../../app/webhooks.ts';
import { invalid } from '../../domain/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';

const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

export function webhookRoutes(d: ApiDeps): Routes<'admin'> {
  return [
    {
      method: 'GET',
      path: '/accounts/{id}/webhooks',
      body: 'none',
      handler: async (req) => ok({ data: (await endpointsOf(d, req.params.id!)).map(endpointView) }),
    },
    {
      method: 'POST',
      path: '/accounts/{id}/webhooks',
      body: 'json',
      handler: async (req) => {
        const b = req.json;
        allowOnly(b, ['url', 'events', 'mode', 'description']);
        if (b.description !== undefined && typeof b.description !== 'string')
          throw invalid('description', 'a string', b.description);
        const endpoint = await addWebhook(d, {
          account: req.params.id!,
          mode: oneOf('mode', b.mode, MODES, 'live'),
          url: b.url,
          events: b.events,
          ...(b.description !== undefined ? { description: b.description as string } : {}),
        });
        return ok(endpoint, 201);
      },
    },
    {
      method: 'DELETE',
      path: '/webhooks/{id}',
      body: 'none',
      handler: async (req) => ok(endpointView(await removeWebhook(d, req.params.id!))),
    },
    {
      method: 'GET',
      path: '/webhooks/deliveries',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['account', 'status', 'job']);
        return ok(
          await listDeliveries(d, {
            limit,
            ...(cursor ? { cursor } : {}),
            ...(rest.account ? { accountId: rest.account } : {}),
            ...(rest.status ? { status: oneOf('status', rest.status, DELIVERY_STATUSES) } : {}),
            ...(rest.job ? { jobId: rest.job } : {}),
          }),
        );
      },
    },
    {
      method: 'GET',
      path: '/webhooks/deliveries/{id}',
      body: 'none',
      handler: async (req) => ok(await showDelivery(d, req.params.id!)),
    },
    {
      method: 'POST',
      path: '/webhooks/deliveries/{id}/redeliver',
      body: 'none',
      handler: async (req) => ok(await redeliver(d, req.params.id!)),
    },
  ];
}
