// The doors a route names (types.ts, Door), each opened the same way by the one pipeline: what
// a request must show to pass, what passing gives its handler, and what it counts against.
import { createHash, timingSafeEqual } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from '../limits/flexible.ts';
import { Authenticator } from '../app/auth.ts';
import { csrfMatches, session } from '../app/dashboard.ts';
import { limitReached, apiRefusal, type DecidedRefusal } from '../domain/errors.ts';
import type { RateDecision } from '../limits/rate-limit.ts';
import type { ApiDeps } from './deps.ts';
import { type ApiRequest, type Door, header } from './types.ts';

export const SESSION_COOKIE = 'scriptorium_session';

/** What answering a request found out: its route's pattern and account (for its access line), the key's limit. */
export interface Seen {
  route?: string;
  account?: string;
  rate?: RateDecision;
}

export type Doors = Record<Door, (req: ApiRequest, seen: Seen) => Promise<object>> & {
  /** Counts a request the transport answered itself (a 413), against its key if the key is valid. */
  countLater(req: ApiRequest): void;
};

const NOTHING = Promise.resolve({});

export function doors(d: ApiDeps): Doors {
  const auth = new Authenticator(d);
  const gate = new AdminGate(d.config.adminToken);
  const sessionOf = async (req: ApiRequest) => {
    // A change must come from this origin, before anything is read.
    if (req.method !== 'GET') crossSite(req);
    const token = cookieOf(req);
    return token ? session(d, token) : null;
  };
  return {
    /** An API key (spec §5), under its rate limit (§8); every request it makes is counted. */
    async key(req, seen) {
      const caller = await auth.authenticate(req.headers.authorization);
      seen.account = caller.account.id;
      const rate = await d.limiter.consume(caller.keyId);
      seen.rate = rate;
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
      return { caller };
    },
    /** A dashboard session; a change also needs its CSRF token. */
    async session(req) {
      const current = await sessionOf(req);
      if (!current) throw apiRefusal('UNAUTHORIZED', 'sign in first: there is no session, or it ended');
      if (req.method !== 'GET' && !csrfMatches(current.token, header(req, 'x-csrf-token')))
        throw apiRefusal('FORBIDDEN', 'X-CSRF-Token must be the csrfToken of GET /dashboard/v1/session');
      return { session: current };
    },
    /** The dashboard's doors: whoever comes from this origin, with the session if there is one. */
    async guest(req) {
      return { session: await sessionOf(req) };
    },
    admin: (req) => gate.check(req).then(() => ({})),
    open: () => NOTHING,
    countLater(req) {
      if (!header(req, 'authorization')) return;
      auth
        .authenticate(req.headers.authorization)
        .then((caller) => d.counter.request(caller, req.receivedAt))
        .catch(() => {});
    },
  };
}

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
      throw apiRefusal(
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
    throw apiRefusal('UNAUTHORIZED', problem);
  }

  private shut(peer: string, res: RateLimiterRes): DecidedRefusal {
    const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return limitReached(
      `${ADMIN_FAILURES_PER_MINUTE} wrong admin tokens came from ${peer} within a minute; wait ${wait} s`,
      { name: 'admin-token-failures', limit: ADMIN_FAILURES_PER_MINUTE, window: 60, reset: wait },
      wait,
    );
  }
}

function cookieOf(req: ApiRequest): string | undefined {
  const raw = header(req, 'cookie');
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * A state-changing dashboard call must come from this origin: a browser says where a request
 * comes from (Origin, Sec-Fetch-Site), and one from another site is refused.
 */
function crossSite(req: ApiRequest): void {
  const site = header(req, 'sec-fetch-site');
  const origin = header(req, 'origin');
  const host = header(req, 'host');
  if (site && site !== 'same-origin' && site !== 'none')
    throw apiRefusal('FORBIDDEN', `a dashboard call must come from the dashboard itself, not ${site}`);
  if (origin && host && origin.replace(/^https?:\/\//, '') !== host)
    throw apiRefusal(
      'FORBIDDEN',
      `a dashboard call must come from the dashboard itself, not ${origin.slice(0, 80)}`,
    );
}
