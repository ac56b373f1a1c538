// The admin API (/admin/v1, DESIGN §8) and GET /metrics: the operator's operations over HTTP,
// the same functions the CLI calls, behind `Authorization: Bearer $ADMIN_TOKEN` (compared in
// constant time). Without a configured token both are off and answer 404.
//
// Errors keep the public shape `{ error: { code, message, requestId } }` and go through the one
// mapper of src/api/errors.ts: the public codes where they fit (INVALID_REQUEST, 409 for a
// finished job), NOT_FOUND for a missing account, key or job, UNAUTHORIZED for a missing or
// wrong token. Admin replies carry only X-Request-ID among the headers.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  cancelAnyJob,
  createAccount,
  createKey,
  listAccounts,
  listJobs,
  listKeys,
  revokeKey,
  setPlan,
  showAccount,
  topUp,
} from '../app/admin.ts';
import { planNames } from '../app/reads.ts';
import { ApiError, invalid, limitReached } from '../domain/errors.ts';
import { type Job, jobView } from '../domain/generation.ts';
import { PACK_MAX_SHEETS, PACK_MIN_SHEETS } from '../domain/plans.ts';
import {
  type AdminRoute,
  allowOnly,
  jobFilters,
  MODES,
  objectBody,
  ok,
  oneOf,
  wholeNumber,
} from './admin-input.ts';
import { webhookAdminRoutes } from './admin-webhooks.ts';
import type { ApiDeps } from './deps.ts';
import { errorReply, publicError } from './errors.ts';
import { parseJsonBody } from './json-body.ts';
import { listParams, queryParams } from './query.ts';
import { Router } from './router.ts';
import type { ApiRequest, Reply } from './types.ts';

export const ADMIN_PREFIX = '/admin/v1';
export const METRICS_PATH = '/metrics';
export const LIVE_PATH = `${ADMIN_PREFIX}/live`;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether an Authorization header carries the admin token (constant time; never with no token set). */
function adminAuthorized(token: string, authorization: string | undefined): boolean {
  if (!authorization?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(authorization.slice(7)), digest(token));
}

/** Wrong admin tokens a source address may send in a minute; past them it is refused for the rest of it. */
export const ADMIN_FAILURES_PER_MINUTE = 10;

/**
 * The door of the admin API, /metrics and the live feed: off without a token, one Authorization
 * header carrying it, and a source that keeps guessing wrong is shut out for the minute
 * (per process, in memory: a farm's API processes each count their own).
 */
export class AdminGate {
  private readonly failures = new RateLimiterMemory({ points: ADMIN_FAILURES_PER_MINUTE, duration: 60 });

  constructor(private readonly token: string | undefined) {}

  /** Resolves when the request may pass; throws the refusal otherwise. */
  async check(req: ApiRequest): Promise<void> {
    if (!this.token)
      throw new ApiError(
        'ENDPOINT_NOT_FOUND',
        `${req.path.slice(0, 100)} is off: the server has no ADMIN_TOKEN`,
      );
    const peer = req.peer();
    const seen = await this.failures.get(peer);
    if (seen && seen.consumedPoints >= ADMIN_FAILURES_PER_MINUTE) throw this.shut(peer, seen);
    const authorization = req.headers.authorization;
    const problem = Array.isArray(authorization)
      ? `send one Authorization header, got ${authorization.length}`
      : adminAuthorized(this.token, authorization as string | undefined)
        ? null
        : 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>; the token is missing or wrong';
    if (!problem) return;
    try {
      await this.failures.consume(peer);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw this.shut(peer, res);
      throw res;
    }
    throw new ApiError('UNAUTHORIZED', problem);
  }

  private shut(peer: string, res: RateLimiterRes): ApiError {
    const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return limitReached(
      `${ADMIN_FAILURES_PER_MINUTE} wrong admin tokens came from ${peer} within a minute; wait ${wait} s`,
      { name: 'admin-token-failures', limit: ADMIN_FAILURES_PER_MINUTE, window: 60, reset: wait },
      wait,
    );
  }
}

const adminJobView = (j: Job) => ({
  ...jobView(j),
  accountId: j.accountId,
  mode: j.mode,
  attempt: j.attempt,
  ...(j.status === 'failed' ? { failedAt: j.updatedAt } : {}),
  ...(j.error ? { error: j.error } : {}),
  ...(j.requestId ? { requestId: j.requestId } : {}),
});

function adminRoutes(d: ApiDeps): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/accounts',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor } = listParams(req);
        return ok(await listAccounts(d, { limit, ...(cursor ? { cursor } : {}) }));
      },
    },
    {
      method: 'POST',
      path: '/accounts',
      body: 'json',
      handler: async (req) => {
        const b = objectBody(req.json);
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
      method: 'GET',
      path: '/accounts/{id}/keys',
      body: 'none',
      handler: async (req) => ok({ data: await listKeys(d, req.params.id!) }),
    },
    {
      method: 'POST',
      path: '/accounts/{id}/keys',
      body: 'json',
      handler: async (req) => {
        const b = objectBody(req.json);
        allowOnly(b, ['mode', 'name']);
        const mode = oneOf('mode', b.mode, MODES, 'live');
        if (b.name !== undefined && typeof b.name !== 'string') throw invalid('name', 'a string', b.name);
        const { key, record } = await createKey(d, {
          account: req.params.id!,
          mode,
          ...(b.name ? { name: b.name } : {}),
        });
        return ok({ ...record, key }, 201);
      },
    },
    {
      method: 'POST',
      path: '/accounts/{id}/topups',
      body: 'json',
      handler: async (req) => {
        const b = objectBody(req.json);
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
        const b = objectBody(req.json);
        allowOnly(b, ['plan', 'period']);
        const plan = oneOf('plan', b.plan, planNames(d));
        const period = b.period === undefined ? undefined : wholeNumber('period', b.period, 7, 30);
        return ok(await setPlan(d, { account: req.params.id!, plan, ...(period ? { period } : {}) }));
      },
    },
    {
      method: 'POST',
      path: '/keys/{id}/revoke',
      body: 'none',
      handler: async (req) => ok(await revokeKey(d, req.params.id!)),
    },
    {
      method: 'GET',
      path: '/jobs',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['status', 'account', 'mode', 'kind']);
        const page = await listJobs(d, {
          limit,
          cursor,
          accountId: rest.account,
          mode: rest.mode === undefined ? undefined : oneOf('mode', rest.mode, MODES),
          ...jobFilters(rest),
        });
        return ok({ ...page, data: page.data.map(adminJobView) });
      },
    },
    {
      method: 'POST',
      path: '/jobs/{id}/cancel',
      body: 'none',
      handler: async (req) => ok(adminJobView(await cancelAnyJob(d, req.params.id!))),
    },
    {
      method: 'GET',
      path: '/snapshot',
      body: 'none',
      handler: async (req) => {
        queryParams(req, []);
        return ok(await d.snapshot());
      },
    },
    ...webhookAdminRoutes(d),
  ];
}

export interface AdminApi {
  /** Whether this request is the admin API's (or /metrics). */
  owns(path: string): boolean;
  /** `seen` learns the route's pattern, for the access line. */
  handle(req: ApiRequest, seen?: { route?: string }): Promise<Reply>;
  /** Null when the request may pass the admin door (the live feed's upgrade), else the refusal. */
  admit(req: ApiRequest): Promise<Reply | null>;
}

export function createAdminApi(d: ApiDeps, log: Logger): AdminApi {
  const router = new Router(adminRoutes(d));
  const gate = new AdminGate(d.config.adminToken);
  const refusal = (req: ApiRequest, err: unknown): Reply =>
    errorReply(publicError(err, req, log), req, { 'X-Request-ID': req.id });

  async function route(req: ApiRequest, seen: { route?: string }): Promise<Reply> {
    // The route is named for the access line before the door is checked (a refusal names it too).
    const m = router.match(req.method, req.path.slice(ADMIN_PREFIX.length));
    if (req.path === METRICS_PATH) seen.route = METRICS_PATH;
    else if (m.route) seen.route = `${ADMIN_PREFIX}${m.route.path}`;
    await gate.check(req);
    if (req.path === METRICS_PATH) {
      if (req.method !== 'GET')
        throw new ApiError(
          'ENDPOINT_NOT_FOUND',
          `${req.method} is not accepted on ${METRICS_PATH}; it takes GET`,
        );
      const { contentType, text } = await d.metrics.prometheus(await d.snapshot());
      return { status: 200, raw: { contentType, bytes: text } };
    }
    if (!m.route) {
      throw new ApiError(
        'ENDPOINT_NOT_FOUND',
        m.allowed.length
          ? `${req.method} is not accepted on ${req.path}; it takes ${m.allowed.join(', ')}`
          : `${req.method} ${req.path.slice(0, 100)} is not an admin endpoint`,
      );
    }
    const json = m.route.body === 'json' ? parseJsonBody(req.body) : undefined;
    return m.route.handler({ ...req, params: m.params, json });
  }

  return {
    owns: (path) => path === METRICS_PATH || path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`),
    async handle(req, seen = {}) {
      const reply = await route(req, seen).catch((err: unknown) => refusal(req, err));
      reply.headers = { ...reply.headers, 'X-Request-ID': req.id };
      return reply;
    },
    admit: (req) =>
      gate.check(req).then(
        () => null,
        (err: unknown) => refusal(req, err),
      ),
  };
}
