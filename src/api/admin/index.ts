// The admin API (/admin/v1, DESIGN §8) and GET /metrics: the operator's operations over HTTP,
// the same use-cases the CLI calls, behind `Authorization: Bearer $ADMIN_TOKEN` (./doors.ts).
// Without a configured token both are off and answer 404. Errors keep the public shape; replies
// carry only X-Request-ID among the headers (../surfaces.ts).
import type { ApiDeps } from '../deps.ts';
import { ADMIN_PREFIX } from '../surfaces.ts';
import { type AnyRoute, under } from '../types.ts';
import { accountRoutes } from './accounts.ts';
import { metricsRoutes, snapshotRoutes } from './figures.ts';
import { jobRoutes } from './jobs.ts';
import { keyRoutes } from './keys.ts';
import { planRoutes } from './plans.ts';
import { templateRoutes } from './templates.ts';
import { webhookRoutes } from './webhooks.ts';

export type { AdminAccount, AdminJob, AdminKey, AdminPage, AdminSnapshot } from './wire.ts';

export const adminRoutes = (d: ApiDeps): AnyRoute[] => [
  ...under(ADMIN_PREFIX, 'admin', [
    ...accountRoutes(d),
    ...keyRoutes(d),
    ...templateRoutes(d),
    ...jobRoutes(d),
    ...planRoutes(d),
    ...snapshotRoutes(d),
    ...webhookRoutes(d),
  ]),
  ...under('', 'admin', metricsRoutes(d)),
];
