// The public API (spec §4) under /api/v1, behind an API key; and what is open to anybody.
import type { Logger } from 'pino';
import type { ApiDeps } from '../deps.ts';
import { API_PREFIX } from '../surfaces.ts';
import { type AnyRoute, under } from '../types.ts';
import { assetRoutes } from './assets.ts';
import { batchRoutes } from './batches.ts';
import { fontRoutes } from './fonts.ts';
import { generationRoutes } from './generations.ts';
import { openRoutes } from './probes.ts';
import { renderRoutes } from './renders.ts';
import { templateRoutes } from './templates.ts';
import { usageRoutes } from './usage.ts';

export const publicRoutes = (d: ApiDeps, log: Logger): AnyRoute[] => [
  ...under(API_PREFIX, 'key', [
    ...templateRoutes(d),
    ...fontRoutes(d),
    ...usageRoutes(d),
    ...assetRoutes(d),
    ...generationRoutes(d, log),
    ...batchRoutes(d, log),
    ...renderRoutes(d),
  ]),
  ...under('', 'open', openRoutes(d)),
];
