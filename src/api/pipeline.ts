// The one request pipeline every surface goes through: route → door → body → handler → reply.
// A request is matched to a route (the public API's, the admin API's, the dashboard's, the
// probes'); the route's door is opened (an API key under its rate limit, a session, the admin
// token, or none); its body is read as the route says; `Idempotency-Key` is taken where the
// route keeps answers; one use-case answers. Errors of any stage become
// `{ error: { code, message, requestId } }` with the catalogue's status (./errors.ts), and every
// answer passes `observe` (figures, access line).
import type { Logger } from 'pino';
import { giveUpKey, keepAnswer, takeKey } from '../app/idempotency.ts';
import type { IdempotencyClaim } from '../app/idempotency.ts';
import { Refusal, apiRefusal, type DecidedRefusal } from '../domain/errors.ts';
import { adminRoutes } from './admin/index.ts';
import { dashboardRoutes, pageReply } from './dashboard/index.ts';
import type { ApiDeps } from './deps.ts';
import { doors, type Seen } from './doors.ts';
import { errorReply, publicError } from './errors.ts';
import { fingerprint, idempotencyKey, replayed, storedReply } from './idempotency.ts';
import { objectBody } from './input.ts';
import { parseJsonBody } from './json-body.ts';
import { docsReply } from './openapi/docs.ts';
import { publicRoutes } from './public/index.ts';
import { Router } from './router.ts';
import { API_PREFIX, FILE_ROUTES, type Surface, surfaces } from './surfaces.ts';
import { FONT_MAX_BYTES } from '../domain/fonts.ts';
import { type AnyRoute, type ApiRequest, JSON_TYPE, type Reply } from './types.ts';

export { API_PREFIX, HEALTH_PATH, LIVE_PATH, METRICS_PATH, OPENAPI_PATH, READY_PATH } from './surfaces.ts';
export type { Seen } from './doors.ts';

const RENDERS_PATH = `${API_PREFIX}/renders`;

export interface Api {
  /** Largest body the route of this method and path accepts (the transport enforces it). */
  bodyLimit(method: string, path: string): number;
  /** Answers a request; never rejects. */
  handle(req: ApiRequest): Promise<Reply>;
  /** A reply the transport makes itself (413 while streaming), with the usual headers. */
  refuse(req: ApiRequest, err: DecidedRefusal): Reply;
  /** Counts a request the transport answered itself, if its key is valid. */
  countLater(req: ApiRequest): void;
  /** Null when a request may pass the admin door (the live feed's upgrade), else the refusal. */
  admitAdmin(req: ApiRequest): Promise<Reply | null>;
}

/** Every route of every surface. */
export function routes(d: ApiDeps, log: Logger): AnyRoute[] {
  return [...publicRoutes(d, log), ...adminRoutes(d), ...dashboardRoutes(d, log)];
}

export function createApi(d: ApiDeps, log: Logger): Api {
  const all = routes(d, log);
  const router = new Router(all);
  d.metrics.knownRoutes([...all.map((r) => r.path), ...FILE_ROUTES]);
  const door = doors(d);
  const surfaceOf = surfaces(d.limiter, {
    pages: pageReply,
    docs: (req) => (req.method === 'GET' || req.method === 'HEAD' ? docsReply(req.path) : null),
  });
  const sample = d.config.accessLogSample;

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

  /** The surface's headers under the reply's own, and its last word over both. */
  function finish(req: ApiRequest, surface: Surface, reply: Reply, seen: Seen): Reply {
    const base = surface.base(req, seen);
    const headers = reply.headers ? Object.assign(base, reply.headers) : base;
    surface.seal?.(req, headers);
    reply.headers = headers;
    return reply;
  }

  const failure = (req: ApiRequest, surface: Surface, err: unknown, seen: Seen): Reply =>
    errorReply(publicError(err, req, log), req, surface.base(req, seen));

  /** The body as the route takes it: JSON parsed (an object under every door but a key's), or bytes that must not be empty. */
  function bodyOf(req: ApiRequest, route: AnyRoute): unknown {
    if (route.body === 'json' || route.body === 'batch') {
      const json = parseJsonBody(req.body);
      return route.door === 'key' ? json : objectBody(json);
    }
    if (route.door !== 'key' && req.body.byteLength === 0) {
      if (route.body === 'image')
        throw new Refusal('invalid', 'the body must be the image, PNG or JPEG; it was empty', {
          field: 'body',
        });
      if (route.body === 'font')
        throw new Refusal('invalid', 'the body must be the font file, TTF or OTF; it was empty', {
          field: 'body',
        });
    }
    return route.door === 'key' ? undefined : {};
  }

  async function answer(req: ApiRequest, surface: Surface, seen: Seen): Promise<Reply> {
    const m = router.match(req.method, req.path);
    if (m.route) seen.route = m.route.path;
    else if (surface.files) {
      const file = surface.files.reply(req);
      if (file) {
        seen.route = surface.files.route(req);
        return file;
      }
    }
    const opened = await door[m.route?.door ?? surface.door](req, seen);
    if (!m.route) throw apiRefusal('ENDPOINT_NOT_FOUND', surface.notFound(req, m.allowed));
    const route = m.route;
    const key =
      route.door === 'key' && req.method === 'POST'
        ? idempotencyKey(req, route.idempotency !== undefined)
        : undefined;
    const json = bodyOf(req, route);
    let claim: IdempotencyClaim | undefined;
    if (key !== undefined && route.idempotency === 'kept') {
      const { caller } = opened as { caller: { tenant: IdempotencyClaim['tenant'] } };
      const taken = await takeKey(d, caller.tenant, key, fingerprint(req, json));
      if ('replay' in taken) return replayed(taken.replay);
      claim = taken.claim;
    }
    const routed = { ...req, ...opened, params: m.params, json, idempotency: claim };
    let reply: Reply;
    try {
      reply = await route.handler(routed as never);
    } catch (err) {
      // Nothing was done: the key is given up so that a retry runs again.
      if (claim)
        await giveUpKey(d, claim).catch((e: unknown) => warn(e, req, 'could not release an idempotency key'));
      throw err;
    }
    if (claim) {
      // A use-case that made something kept its answer in the same commit; this keeps the
      // answers that made nothing new (an unchanged preview) and gives up the key after a refusal.
      const kept = reply.status < 300 ? keepAnswer(d, claim, storedReply(reply)) : giveUpKey(d, claim);
      await kept.catch((e: unknown) => warn(e, req, 'could not keep an idempotency answer'));
    }
    return reply;
  }

  const warn = (err: unknown, req: ApiRequest, what: string) => log.warn({ err, requestId: req.id }, what);

  /** A refusal made outside a route (the transport's 413, the live feed's door), as its surface answers. */
  function refuse(req: ApiRequest, err: unknown): Reply {
    const surface = surfaceOf(req.path);
    const seen: Seen = {};
    return finish(req, surface, failure(req, surface, err, seen), seen);
  }

  /**
   * The answer when answering itself failed (a fault in the reply's last stages): a plain 500,
   * logged. One request's fault never reaches the transport, nor ends the process.
   */
  function lastResort(req: ApiRequest, err: unknown): Reply {
    log.error(
      { err, requestId: req.id, method: req.method, path: req.path },
      'a request could not be answered',
    );
    const error = { code: 'INTERNAL_ERROR', message: 'the request could not be answered', requestId: req.id };
    return {
      status: 500,
      headers: { 'X-Request-ID': req.id },
      raw: { contentType: JSON_TYPE, bytes: JSON.stringify({ error }) },
    };
  }

  return {
    bodyLimit(method, path) {
      const kind = router.bodyKind(method, path);
      return kind === 'image'
        ? d.config.assetMaxBytes
        : kind === 'font'
          ? FONT_MAX_BYTES
          : kind === 'batch'
            ? d.config.batchBodyLimitBytes
            : d.config.bodyLimitBytes;
    },
    handle: (req) => {
      const seen: Seen = {};
      const surface = surfaceOf(req.path);
      return answer(req, surface, seen)
        .catch((err: unknown) => failure(req, surface, err, seen))
        .then((reply) => observe(req, finish(req, surface, reply, seen), seen))
        .catch((err: unknown) => lastResort(req, err));
    },
    refuse(req, err) {
      try {
        return refuse(req, err);
      } catch (fault) {
        return lastResort(req, fault);
      }
    },
    admitAdmin: (req) =>
      door.admin(req, {}).then(
        () => null,
        (err: unknown) => refuse(req, err),
      ),
    countLater: (req) => door.countLater(req),
  };
}
