// The one request pipeline every route goes through: request id → (public OpenAPI document) →
// auth → per-key rate limit → count → route → body → handler → reply. Errors of any stage
// become `{ error: { code, message, requestId } }` with the catalogue's status.
import type { Logger } from 'pino';
import { Authenticator, type Caller } from '../app/auth.ts';
import { createAdminApi } from './admin.ts';
import { createDashboardApi } from './dashboard.ts';
import { ApiError, limitReached } from '../domain/errors.ts';
import { errorReply, publicError } from './errors.ts';
import type { RateDecision } from '../limits/rate-limit.ts';
import type { ApiDeps } from './deps.ts';
import { parseJsonBody } from './json-body.ts';
import { docsReply } from './docs.ts';
import { openApiDocument } from './openapi.ts';
import { Router } from './router.ts';
import { assetRoutes } from './routes/assets.ts';
import { fontRoutes } from './routes/fonts.ts';
import { generationRoutes } from './routes/generations.ts';
import { renderRoutes } from './routes/renders.ts';
import { templateRoutes } from './routes/templates.ts';
import { usageRoutes } from './routes/usage.ts';
import { type ApiRequest, header, JSON_TYPE, type Reply, type Route } from './types.ts';
import { canonicalJson, idempotencyKey, storedReply, takeKey } from './idempotency.ts';
import type { IdempotencyClaim } from '../store/index.ts';

export const API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';
const RENDERS_PATH = `${API_PREFIX}/renders`;

/** What answering a request found out, for its access line: the route's pattern, the account. */
export interface Seen {
  route?: string;
  account?: string;
}

export interface Api {
  /** Largest body the route of this method and path accepts (the transport enforces it). */
  bodyLimit(method: string, path: string): number;
  /** Answers a request; never rejects. */
  handle(req: ApiRequest): Promise<Reply>;
  /** A reply the transport makes itself (413 while streaming), with the usual headers. */
  refuse(req: ApiRequest, err: ApiError): Reply;
  /** Counts a request the transport answered itself, if its key is valid. */
  countLater(req: ApiRequest): void;
  /** Null when a request may pass the admin door (the live feed's upgrade), else the refusal. */
  admitAdmin(req: ApiRequest): Promise<Reply | null>;
}

export function routes(d: ApiDeps, log: Logger): Route[] {
  return [
    ...templateRoutes(d),
    ...fontRoutes(d),
    ...usageRoutes(d),
    ...assetRoutes(d),
    ...generationRoutes(d, log),
    ...renderRoutes(d),
  ];
}

export function createApi(d: ApiDeps, log: Logger): Api {
  const router = new Router(routes(d, log));
  const auth = new Authenticator(d.store);
  const policy = `"per-key";q=${d.limiter.points};w=${d.limiter.windowSeconds}`;
  const openapi = JSON.stringify(openApiDocument());
  const admin = createAdminApi(d, log);
  const dashboard = createDashboardApi(d, log);

  /**
   * Every answer passes here: errors by code (429s among them) and render latency for the
   * figures, and the access line (docs/operations.md, "Logs"). A JSON body is serialised here,
   * once, so that its length can be logged.
   */
  function observe(req: ApiRequest, reply: Reply, seen: Seen): Reply {
    if (reply.status >= 400) {
      const code = (reply.json as { error?: { code?: string } } | undefined)?.error?.code;
      if (code) d.metrics.error(code, reply.status);
    } else if (req.method === 'POST' && req.path === RENDERS_PATH && reply.raw) {
      d.metrics.render(
        reply.raw.contentType.startsWith('image/png') ? 'png' : 'svg',
        Date.now() - req.receivedAt.getTime(),
      );
    }
    if (reply.json !== undefined && !reply.raw) {
      reply.raw = { contentType: JSON_TYPE, bytes: JSON.stringify(reply.json) };
    }
    d.metrics.request(seen.route ?? null, reply.status, (Date.now() - req.receivedAt.getTime()) / 1000);
    // The line is made only when it is written (its peer costs the transport a system call).
    const logged = reply.status >= 500 || sample >= 1 || Math.random() < sample;
    if (logged && log.isLevelEnabled('info')) {
      const bytes = reply.stream
        ? reply.stream.size
        : reply.raw
          ? typeof reply.raw.bytes === 'string'
            ? Buffer.byteLength(reply.raw.bytes)
            : reply.raw.bytes.byteLength
          : 0;
      log.info(
        {
          requestId: req.id,
          method: req.method,
          route: seen.route ?? null,
          status: reply.status,
          ms: Date.now() - req.receivedAt.getTime(),
          bytes,
          account: seen.account,
          peer: req.peer(),
        },
        'request',
      );
    }
    return reply;
  }
  const sample = d.config.accessLogSample;

  function baseHeaders(req: ApiRequest, rate?: RateDecision): Record<string, string> {
    const h: Record<string, string> = { 'X-Request-ID': req.id, 'RateLimit-Policy': policy };
    if (rate) h.RateLimit = `"per-key";r=${rate.remaining};t=${rate.resetSeconds}`;
    return h;
  }

  const failure = (req: ApiRequest, err: unknown, rate?: RateDecision): Reply =>
    errorReply(publicError(err, req, log), req, baseHeaders(req, rate));

  async function handle(req: ApiRequest, seen: Seen): Promise<Reply> {
    if (admin.owns(req.path)) return admin.handle(req, seen);
    if (dashboard.owns(req.path)) return dashboard.handle(req, seen);
    if (req.path === OPENAPI_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      seen.route = OPENAPI_PATH;
      return {
        status: 200,
        headers: baseHeaders(req),
        raw: { contentType: 'application/json', bytes: openapi },
      };
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const docs = docsReply(req.path);
      if (docs) {
        seen.route = req.path;
        return { ...docs, headers: { ...baseHeaders(req), ...docs.headers } };
      }
      if (req.path === HEALTH_PATH || req.path === READY_PATH) seen.route = req.path;
      // Probes need no key: an orchestrator asks them (docs/operations.md, "Probes").
      if (req.path === HEALTH_PATH) return { status: 200, headers: baseHeaders(req), json: { status: 'ok' } };
      if (req.path === READY_PATH) {
        const r = await d.ready();
        return {
          status: r.ready ? 200 : 503,
          headers: baseHeaders(req),
          json: { status: r.ready ? 'ready' : 'unready', checks: r.checks },
        };
      }
    }
    if (!req.path.startsWith(`${API_PREFIX}/`)) {
      return failure(
        req,
        new ApiError(
          'ENDPOINT_NOT_FOUND',
          `${req.method} ${req.path.slice(0, 100)} is not an endpoint; the API is under ${API_PREFIX}`,
        ),
      );
    }
    let caller: Caller;
    try {
      caller = await auth.authenticate(req.headers.authorization);
    } catch (err) {
      return failure(req, err);
    }
    seen.account = caller.account.id;
    let rate: RateDecision | undefined;
    // The route is known before the limit decides, so a refused request is logged with it.
    const path = req.path.slice(API_PREFIX.length);
    const m = router.match(req.method, path);
    if (m.route) seen.route = `${API_PREFIX}${m.route.path}`;
    try {
      rate = await d.limiter.consume(caller.keyId);
      d.counter.request(caller, req.receivedAt);
      if (!rate.allowed) {
        throw limitReached(
          `this key may make ${d.limiter.points} requests per ${d.limiter.windowSeconds} s; wait 60 s`,
          {
            name: 'per-key',
            limit: d.limiter.points,
            window: d.limiter.windowSeconds,
            reset: rate.resetSeconds,
          },
        );
      }
      if (!m.route) {
        throw new ApiError(
          'ENDPOINT_NOT_FOUND',
          m.allowed.length
            ? `${req.method} is not accepted on ${req.path}; it takes ${m.allowed.join(', ')}`
            : `${req.method} ${req.path.slice(0, 100)} is not an endpoint of this API`,
        );
      }
      const key = req.method === 'POST' ? idempotencyKey(req, m.route.idempotency !== undefined) : undefined;
      const json = m.route.body === 'json' ? parseJsonBody(req.body) : undefined;
      let claim: IdempotencyClaim | undefined;
      if (key !== undefined && m.route.idempotency === 'kept') {
        const taken = await takeKey(
          d.store,
          req,
          json === undefined ? req.body : canonicalJson(json),
          caller,
          key,
          d.now(),
        );
        if ('replay' in taken) return withHeaders(taken.replay, baseHeaders(req, rate));
        claim = taken.claim;
      }
      let reply: Reply;
      try {
        reply = await m.route.handler({ ...req, caller, params: m.params, json, idempotency: claim });
      } catch (err) {
        if (!claim) throw err;
        // Nothing was done: the key is given up so that a retry runs again.
        await d.store.idempotency
          .release(claim)
          .catch((e: unknown) =>
            log.warn({ err: e, requestId: req.id }, 'could not release an idempotency key'),
          );
        throw err;
      }
      if (claim) {
        // A use-case that made something kept its answer in the same commit; this keeps the
        // answers that made nothing new (an unchanged preview) and gives up the key after a refusal.
        const kept =
          reply.status < 300
            ? d.store.idempotency.settle(claim, storedReply(reply))
            : d.store.idempotency.release(claim);
        await kept.catch((e: unknown) =>
          log.warn({ err: e, requestId: req.id }, 'could not keep an idempotency answer'),
        );
      }
      return withHeaders(reply, baseHeaders(req, rate));
    } catch (err) {
      return failure(req, err, rate);
    }
  }

  /** The route's own headers win over the usual ones. */
  function withHeaders(reply: Reply, base: Record<string, string>): Reply {
    reply.headers = reply.headers ? Object.assign(base, reply.headers) : base;
    return reply;
  }

  return {
    bodyLimit(method, path) {
      if (dashboard.owns(path)) return dashboard.bodyLimit(method, path);
      const image =
        path.startsWith(`${API_PREFIX}/`) &&
        router.bodyKind(method, path.slice(API_PREFIX.length)) === 'image';
      return image ? d.config.assetMaxBytes : d.config.bodyLimitBytes;
    },
    handle: (req) => {
      const seen: Seen = {};
      return handle(req, seen)
        .catch((err: unknown) => failure(req, err))
        .then((reply) => observe(req, reply, seen));
    },
    refuse: (req, err) => failure(req, err),
    admitAdmin: (req) => admin.admit(req),
    countLater(req) {
      if (!header(req, 'authorization')) return;
      auth
        .authenticate(req.headers.authorization)
        .then((caller) => d.counter.request(caller, req.receivedAt))
        .catch(() => {});
    },
  };
}
