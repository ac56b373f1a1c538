// The customer's dashboard over HTTP: its JSON API under /dashboard/v1 and its app under
// /dashboard (./pages.ts). The API's door is a session cookie, and every state-changing call
// also needs the session's CSRF token in X-CSRF-Token and, when the browser says where it comes
// from, this origin (../doors.ts). Bearer keys never open it, and a session never opens /api/v1.
import type { Logger } from 'pino';
import type { ApiDeps } from '../deps.ts';
import { DASHBOARD_API } from '../surfaces.ts';
import { type AnyRoute, under } from '../types.ts';
import { assetRoutes } from './assets.ts';
import { batchDashboardRoutes } from './batches.ts';
import { fontRoutes } from './fonts.ts';
import { handRoutes } from './hands.ts';
import { jobRoutes } from './jobs.ts';
import { keyRoutes } from './keys.ts';
import { memberRoutes } from './members.ts';
import { planRoutes } from './plans.ts';
import { guestRoutes, sessionRoutes } from './session.ts';
import { templateRoutes } from './templates.ts';
import { webhookRoutes } from './webhooks.ts';

export { pageReply } from './pages.ts';

export const dashboardRoutes = (d: ApiDeps, log: Logger): AnyRoute[] => [
  ...under(DASHBOARD_API, 'guest', guestRoutes(d)),
  ...under(DASHBOARD_API, 'session', [
    ...sessionRoutes(d),
    ...keyRoutes(d),
    ...jobRoutes(d, log),
    ...batchDashboardRoutes(d, log),
    ...templateRoutes(d),
    ...fontRoutes(d),
    ...handRoutes(d),
    ...assetRoutes(d),
    ...memberRoutes(d),
    ...planRoutes(d),
    ...webhookRoutes(d),
  ]),
];
