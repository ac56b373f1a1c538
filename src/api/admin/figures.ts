// The service's figures for the operator: the snapshot the console draws (every instance of a
// farm), and the same as Prometheus text on GET /metrics.
import type { ApiDeps } from '../deps.ts';
import { queryParams } from '../query.ts';
import { METRICS_PATH } from '../surfaces.ts';
import { ok, type Routes } from '../types.ts';

export const snapshotRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: '/snapshot',
    body: 'none',
    handler: async (req) => {
      queryParams(req, []);
      return ok(await d.snapshot());
    },
  },
];

export const metricsRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: METRICS_PATH,
    body: 'none',
    handler: async () => {
      const { contentType, text } = await d.metrics.prometheus(await d.snapshot());
      return { status: 200, raw: { contentType, bytes: text } };
    },
  },
];
