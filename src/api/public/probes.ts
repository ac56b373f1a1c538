// What anybody may ask without a key: the probes an orchestrator polls (docs/operations.md,
// "Probes") and the API's own OpenAPI document.
import type { ApiDeps } from '../deps.ts';
import { openApiDocument } from '../openapi/document.ts';
import { HEALTH_PATH, OPENAPI_PATH, READY_PATH } from '../surfaces.ts';
import { ok, type Routes } from '../types.ts';

export function openRoutes(d: ApiDeps): Routes<'open'> {
  const openapi = JSON.stringify(openApiDocument());
  return [
    { method: 'GET', path: HEALTH_PATH, body: 'none', handler: () => ok({ status: 'ok' }) },
    {
      method: 'GET',
      path: READY_PATH,
      body: 'none',
      handler: async () => {
        const r = await d.ready();
        return ok({ status: r.ready ? 'ready' : 'unready', checks: r.checks }, r.ready ? 200 : 503);
      },
    },
    {
      method: 'GET',
      path: OPENAPI_PATH,
      body: 'none',
      handler: () => ({ status: 200, raw: { contentType: 'application/json', bytes: openapi } }),
    },
  ];
}
