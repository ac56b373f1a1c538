// The dashboard's doors and its session: sign-up, sign-in and invitations (open, under
// per-address and per-email limits), the session the app draws from, and signing out. The
// session is a cookie (HttpOnly, SameSite=Strict, Secure unless the host is this machine).
import {
  acceptInvitation,
  csrfToken,
  lookInvitation,
  type Session,
  type Signed,
  session,
  signIn,
  signOut,
  signOutEverywhere,
  signUp,
} from '../../app/dashboard.ts';
import { limitReached, Refusal } from '../../domain/errors.ts';
import { normalEmail } from '../../domain/users.ts';
import type { RateLimiter } from '../../limits/rate-limit.ts';
import type { ApiDeps } from '../deps.ts';
import { SESSION_COOKIE } from '../doors.ts';
import { allowOnly } from '../input.ts';
import { DASHBOARD_PREFIX } from '../surfaces.ts';
import { type ApiRequest, header, ok, type Reply, type Routes } from '../types.ts';

/** This machine, where browsers keep Secure cookies over plain HTTP. */
const loopback = (host: string | undefined) =>
  !!host && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i.test(host);

function sessionCookie(req: ApiRequest, value: string, maxAgeSeconds: number): string {
  const secure = loopback(header(req, 'host')) ? '' : '; Secure';
  return `${SESSION_COOKIE}=${value}; Path=${DASHBOARD_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The answer that starts a session: the cookie, and what the app needs to draw. */
async function started(d: ApiDeps, req: ApiRequest, signed: Signed, status = 200): Promise<Reply> {
  const current = await session(d, signed.token);
  const maxAge = Math.floor((signed.expiresAt.getTime() - d.now().getTime()) / 1000);
  return {
    status,
    headers: { 'Set-Cookie': sessionCookie(req, signed.token, maxAge) },
    json: sessionView(d, current!),
  };
}

function sessionView(d: ApiDeps, current: Session) {
  return {
    user: current.user,
    accounts: current.memberships,
    csrfToken: csrfToken(current.token),
    expiresAt: current.expiresAt,
    keysMax: d.config.keysMax,
  };
}

/** One try at a door: refused with 429 and when to come back once the limit is spent. */
async function spend(limiter: RateLimiter, key: string, what: string): Promise<void> {
  const r = await limiter.consume(key);
  if (!r.allowed)
    throw limitReached(
      `at most ${limiter.points} tries in ${limiter.windowSeconds / 60} minutes ${what}; wait ${r.resetSeconds} s`,
      { name: 'sign-in-tries', limit: limiter.points, window: limiter.windowSeconds, reset: r.resetSeconds },
      r.resetSeconds,
    );
}

export function guestRoutes(d: ApiDeps): Routes<'guest'> {
  const doors = async (req: ApiRequest, email?: string) => {
    await spend(d.signInLimits.perAddress, req.peer(), 'from this address');
    if (email) await spend(d.signInLimits.perEmail, email, `for ${email}`);
  };
  return [
    {
      method: 'POST',
      path: '/signup',
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['email', 'password', 'name', 'accountName']);
        await doors(req);
        const { email, password, name, accountName } = req.json;
        return started(d, req, await signUp(d, { email, password, name, accountName }), 201);
      },
    },
    {
      method: 'POST',
      path: '/signin',
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['email', 'password']);
        await doors(req, normalEmail(req.json.email));
        return started(d, req, await signIn(d, { email: req.json.email, password: req.json.password }));
      },
    },
    {
      method: 'POST',
      path: '/invitations/lookup',
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['token']);
        await doors(req);
        if (typeof req.json.token !== 'string')
          throw new Refusal('invalid', 'token must be the one of the invitation link', { field: 'token' });
        return ok(await lookInvitation(d, req.json.token));
      },
    },
    {
      method: 'POST',
      path: '/invitations/accept',
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['token', 'name', 'password']);
        await doors(req);
        return started(
          d,
          req,
          await acceptInvitation(d, { ...req.json, token: req.json.token, current: req.session }),
        );
      },
    },
  ];
}

export const sessionRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/session',
    body: 'none',
    handler: async (req) => ok(sessionView(d, req.session)),
  },
  {
    method: 'POST',
    path: '/signout',
    body: 'none',
    handler: async (req) => {
      await signOut(d, req.session.token);
      return { status: 204, headers: { 'Set-Cookie': sessionCookie(req, '', 0) } };
    },
  },
  {
    method: 'POST',
    path: '/signout-everywhere',
    body: 'none',
    handler: async (req) => {
      const ended = await signOutEverywhere(d, req.session);
      return { status: 200, headers: { 'Set-Cookie': sessionCookie(req, '', 0) }, json: { ended } };
    },
  },
];
