// Endpoints of the spec that this server does not offer yet. They are routed (so their bodies
// go through the same limits and JSON checks as they will later) and answer 404
// ENDPOINT_NOT_FOUND saying so; the OpenAPI document marks them the same way.
import { ApiError } from '../../domain/errors.ts';
import type { Route } from '../types.ts';

export const COMING: readonly Pick<Route, 'method' | 'path' | 'body'>[] = [
  { method: 'POST', path: '/generations', body: 'json' },
  { method: 'GET', path: '/generations', body: 'none' },
  { method: 'GET', path: '/generations/{id}', body: 'none' },
  { method: 'GET', path: '/generations/{id}/download', body: 'none' },
  { method: 'POST', path: '/generations/{id}/cancel', body: 'none' },
  { method: 'GET', path: '/generations/{id}/preview', body: 'none' },
  { method: 'POST', path: '/previews', body: 'json' },
  { method: 'POST', path: '/renders', body: 'json' },
];

export function comingRoutes(available: readonly Route[]): Route[] {
  const taken = new Set(available.map((r) => `${r.method} ${r.path}`));
  return COMING.filter((r) => !taken.has(`${r.method} ${r.path}`)).map((r) => ({
    ...r,
    handler: () => {
      throw new ApiError(
        'ENDPOINT_NOT_FOUND',
        `${r.method} /api/v1${r.path} is part of the API but not available on this server yet`,
      );
    },
  }));
}
