// The customer's dashboard over HTTP: the single-page app under /dashboard (built by Vite into
// dist/dashboard) and its JSON API under /dashboard/v1. The API's door is a session cookie
// (HttpOnly, SameSite=Strict, Secure unless the host is this machine), and every state-changing
// call also needs the session's CSRF token in X-CSRF-Token and, when the browser says where it
// comes from, this origin. Bearer keys never open it, and a session never opens /api/v1.
import {
  accountOf,
  assetImage,
  assetsOf,
  fontsPage,
  jobsPage,
  planOf,
  templateOf,
  templatesPage,
} from '../app/reads.ts';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import {
  acceptInvitation,
  csrfMatches,
  csrfToken,
  invite,
  listKeys,
  lookInvitation,
  members,
  membership,
  newTemplate,
  saveTemplate,
  newKey,
  removeMember,
  revokeAccountKey,
  revokeInvitation,
  type Session,
  type Signed,
  session,
  setMemberRole,
  signIn,
  signOut,
  signOutEverywhere,
  signUp,
  testTopUp,
} from '../app/dashboard.ts';
import { deleteAsset, uploadAsset } from '../app/assets.ts';
import type { Caller } from '../app/auth.ts';
import { draftPreview, templateSample } from '../app/drafts.ts';
import { FONT_MAX_BYTES } from '../app/admin.ts';
import {
  addPersonalFont,
  deletePersonalFont,
  personalFontsAllowed,
  renamePersonalFont,
} from '../app/personal-fonts.ts';
import { templateJsonSchemas } from '../domain/template.ts';
import { WEBHOOK_LIMITS } from '../domain/webhooks.ts';
import {
  addWebhook,
  endpointView,
  listDeliveries,
  removeWebhook,
  sendTestEvent,
  tenantWebhooks,
} from '../app/webhooks.ts';
import { fontSummary } from './routes/fonts.ts';
import { usageByDay, usageReport } from '../app/usage.ts';
import { jobView } from '../domain/generation.ts';
import { usageRange } from '../domain/usage-range.ts';
import { jobOutputs } from './routes/generations.ts';
import { templateSummary } from './routes/templates.ts';
import { listParams } from './query.ts';
import { ApiError, invalid, limitReached, Refusal } from '../domain/errors.ts';
import { shownId } from '../domain/ids.ts';
import { displayName, normalEmail, ROLES, type Role } from '../domain/users.ts';
import type { RateLimiter } from '../limits/rate-limit.ts';
import { allowOnly, jobFilters, MODES, objectBody, ok, oneOf, wholeNumber } from './admin-input.ts';
import type { ApiDeps } from './deps.ts';
import { errorReply, publicError } from './errors.ts';
import { parseJsonBody } from './json-body.ts';
import { queryParams } from './query.ts';
import { Router } from './router.ts';
import { type ApiRequest, header, type Reply } from './types.ts';

export const DASHBOARD_PREFIX = '/dashboard';
export const DASHBOARD_API = '/dashboard/v1';
export const SESSION_COOKIE = 'scriptorium_session';

interface DashRequest extends ApiRequest {
  params: Readonly<Record<string, string>>;
  json: Record<string, unknown>;
  /** The signed-in session; set on every route but the doors. */
  session: Session | null;
}

interface DashRoute {
  method: 'GET' | 'POST';
  path: string;
  /** What the body is: nothing, JSON (512 KiB), or an image's bytes (ASSET_MAX_BYTES). */
  body: 'none' | 'json' | 'image' | 'font';
  /** `door`: open without a session (sign-up, sign-in, invitations); `session`: needs one. */
  access: 'door' | 'session';
  handler(req: DashRequest): Promise<Reply>;
}

const s = (req: DashRequest) => req.session!;

function cookieOf(req: ApiRequest): string | undefined {
  const raw = header(req, 'cookie');
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

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

const mode = (req: DashRequest) => oneOf('mode', queryParams(req, ['mode']).mode, MODES);

/** An image as the dashboard lists it: never where its bytes are kept. */
const assetView = (a: {
  id: string;
  type: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
}) => ({
  id: a.id,
  type: a.type,
  width: a.width,
  height: a.height,
  bytes: a.bytes,
  createdAt: a.createdAt,
});

/** A template sent to be stored: its mode and its JSON as text. */
function templateBody(req: DashRequest, more: string[] = []): { mode: 'live' | 'test'; json: string } {
  allowOnly(req.json, ['mode', 'json', ...more]);
  const m = oneOf('mode', req.json.mode, MODES);
  if (typeof req.json.json !== 'string')
    throw new Refusal('invalid', 'json must be the template as text', { field: 'json' });
  return { mode: m, json: req.json.json };
}

/** The tenant a dashboard call reads: an account the user belongs to (with `role`, when the call needs it), in the mode asked for. */
function tenantOf(req: DashRequest, m: 'live' | 'test' = mode(req), role?: Role) {
  membership(s(req), req.params.account!, role);
  return { accountId: req.params.account!, mode: m };
}

/** The tenant of a call only an owner may make (webhook endpoints: they receive the account's events). */
const ownerTenant = (req: DashRequest, m: 'live' | 'test' = mode(req)) => tenantOf(req, m, 'owner');

let schemas: ReturnType<typeof templateJsonSchemas> | undefined;
/** The template model's JSON Schemas (ranges, units, defaults), which the builder's forms are drawn from. */
const templateSchemas = () => {
  schemas ??= templateJsonSchemas();
  return schemas;
};

function routes(d: ApiDeps, log: Logger): DashRoute[] {
  const outputs = jobOutputs(d, log);
  /** The account a dashboard call acts for, as the public API's caller would be. */
  const callerOf = async (req: DashRequest, m: 'live' | 'test' = mode(req)): Promise<Caller> => {
    const tenant = tenantOf(req, m);
    const account = await accountOf(d, tenant.accountId);
    if (!account) throw new Refusal('missing', `account ${shownId(tenant.accountId)} does not exist`);
    return { keyId: '', tenant, account };
  };
  const doors = async (req: ApiRequest, email?: string) => {
    await spend(d.signInLimits.perAddress, req.peer(), 'from this address');
    if (email) await spend(d.signInLimits.perEmail, email, `for ${email}`);
  };
  return [
    {
      method: 'POST',
      path: '/signup',
      body: 'json',
      access: 'door',
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
      access: 'door',
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
      access: 'door',
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
      access: 'door',
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
    {
      method: 'GET',
      path: '/session',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(sessionView(d, s(req))),
    },
    {
      method: 'POST',
      path: '/signout',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        await signOut(d, s(req).token);
        return { status: 204, headers: { 'Set-Cookie': sessionCookie(req, '', 0) } };
      },
    },
    {
      method: 'POST',
      path: '/signout-everywhere',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const ended = await signOutEverywhere(d, s(req));
        return { status: 200, headers: { 'Set-Cookie': sessionCookie(req, '', 0) }, json: { ended } };
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/keys',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(await listKeys(d, s(req), req.params.account!, mode(req))),
    },
    {
      method: 'POST',
      path: '/accounts/{account}/keys',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['mode', 'name']);
        const m = oneOf('mode', req.json.mode, MODES);
        const name = displayName(req.json.name ?? `${m} key`, 'name');
        const { key, record } = await newKey(d, s(req), req.params.account!, { mode: m, name });
        return ok({ ...record, key }, 201);
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/keys/{key}/revoke',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(await revokeAccountKey(d, s(req), req.params.account!, req.params.key!)),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/usage',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const q = queryParams(req, ['mode', 'from', 'to']);
        const tenant = tenantOf(req, oneOf('mode', q.mode, MODES));
        const range = usageRange({ from: q.from, to: q.to }, req.receivedAt, d.config.usageMaxDays);
        const [report, days] = await Promise.all([
          usageReport(d, tenant, range, req.receivedAt),
          usageByDay(d, tenant, range),
        ]);
        return ok({ ...report, days });
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['mode', 'status', 'kind']);
        const tenant = tenantOf(req, oneOf('mode', rest.mode, MODES));
        const page = await jobsPage(d, tenant, { limit, cursor, ...jobFilters(rest) });
        return ok({ ...page, data: page.data.map(jobView) });
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs/{job}/download',
      body: 'none',
      access: 'session',
      handler: (req) => outputs.download(tenantOf(req), req.params.job!),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/jobs/{job}/preview',
      body: 'none',
      access: 'session',
      handler: (req) => outputs.preview(tenantOf(req), req.params.job!),
    },
    {
      method: 'POST',
      path: '/accounts/{account}/topups',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['sheets']);
        const sheets = wholeNumber('sheets', req.json.sheets, 50, 1000);
        return ok(await testTopUp(d, s(req), req.params.account!, sheets), 201);
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/templates',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['mode']);
        const tenant = tenantOf(req, oneOf('mode', rest.mode, MODES));
        const page = await templatesPage(d, tenant, { limit, cursor });
        return ok({ ...page, data: page.data.map(templateSummary) });
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/templates',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        const { mode: m, json } = templateBody(req);
        const t = await newTemplate(d, s(req), req.params.account!, { mode: m, json });
        return ok(templateSummary(t), 201);
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/templates/{template}',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        const { mode: m, json } = templateBody(req);
        const t = await saveTemplate(d, s(req), req.params.account!, {
          id: req.params.template!,
          mode: m,
          json,
        });
        return ok(templateSummary(t));
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/templates/{template}/export',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const t = await templateOf(d, tenantOf(req), req.params.template!);
        if (!t)
          throw new Refusal(
            'missing',
            `template ${shownId(req.params.template!)} does not exist for this account and mode`,
          );
        return {
          status: 200,
          headers: { 'Content-Disposition': `attachment; filename="${t.id}.template.json"` },
          raw: {
            contentType: 'application/json; charset=utf-8',
            bytes: `${JSON.stringify(t.model, null, 2)}\n`,
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/templates/{template}/sample',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(await templateSample(d, tenantOf(req), req.params.template!)),
    },
    {
      method: 'GET',
      path: '/template-schema',
      body: 'none',
      access: 'session',
      handler: async () => ok(templateSchemas()),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/fonts',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const caller = await callerOf(req);
        const { account } = caller;
        const { page, premium } = await fontsPage(d, account, { limit: 100 });
        return ok({
          data: page.data.map((f) => fontSummary(f, premium)),
          plan: planOf(d, account)?.name ?? account.plan,
          premiumFonts: premium,
          personalFonts: personalFontsAllowed(d, caller),
          maxBytes: FONT_MAX_BYTES,
        });
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/fonts',
      body: 'font',
      access: 'session',
      handler: async (req) => {
        // Fonts belong to the account, not to a key mode: the mode shown is accepted, not needed.
        const q = queryParams(req, ['mode', 'name']);
        const caller = await callerOf(req, oneOf('mode', q.mode, MODES, 'live'));
        const added = await addPersonalFont(d, caller, {
          bytes: req.body,
          name: q.name ?? '',
        });
        return ok(
          {
            font: fontSummary(added.font, true),
            sample: { line: added.line, png: Buffer.from(added.sample).toString('base64') },
          },
          201,
        );
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/fonts/{font}/rename',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['name']);
        const caller = await callerOf(req, 'live');
        return ok(fontSummary(await renamePersonalFont(d, caller, req.params.font!, req.json.name), true));
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/fonts/{font}/delete',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const { account } = await callerOf(req, 'live');
        return ok(fontSummary(await deletePersonalFont(d, account.id, req.params.font!), true));
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/drafts',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        const { mode: m, json } = templateBody(req, ['sample']);
        const draft = await draftPreview(d, await callerOf(req, m), {
          mode: m,
          json,
          sample: req.json.sample,
        });
        return ok({ png: Buffer.from(draft.png).toString('base64'), sample: draft.input });
      },
    },
    {
      method: 'GET',
      path: '/accounts/{account}/assets',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const tenant = tenantOf(req);
        const c = d.config;
        const { data, used } = await assetsOf(d, tenant);
        return ok({
          data: data.map(assetView),
          used,
          limits: {
            maxBytes: c.assetMaxBytes,
            maxSide: c.assetMaxSide,
            maxPixels: c.assetMaxPixels,
            maxCount: c.assetsMaxCount,
            maxTotalBytes: c.assetsMaxTotalBytes,
          },
        });
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/assets',
      body: 'image',
      access: 'session',
      handler: async (req) =>
        ok(assetView(await uploadAsset(d, tenantOf(req), req.body, header(req, 'content-type'))), 201),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/assets/{asset}/image',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const image = await assetImage(d, tenantOf(req), req.params.asset!);
        if (!image)
          throw new Refusal(
            'missing',
            `image ${shownId(req.params.asset!)} does not exist for this account and mode`,
          );
        return {
          status: 200,
          headers: { 'Cache-Control': 'private, max-age=3600' },
          raw: { contentType: image.asset.type, bytes: image.bytes },
        };
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/assets/{asset}/delete',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(assetView(await deleteAsset(d, tenantOf(req), req.params.asset!))),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/members',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(await members(d, s(req), req.params.account!)),
    },
    {
      method: 'POST',
      path: '/accounts/{account}/members/{user}/role',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['role']);
        const role = oneOf('role', req.json.role, ROLES) as Role;
        return ok(await setMemberRole(d, s(req), req.params.account!, req.params.user!, role));
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/members/{user}/remove',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        await removeMember(d, s(req), req.params.account!, req.params.user!);
        return ok({ removed: req.params.user! });
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/invitations',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['email', 'role']);
        const role = oneOf('role', req.json.role, ROLES, 'member') as Role;
        const made = await invite(d, s(req), req.params.account!, { email: req.json.email, role });
        return ok({ ...made.invitation, url: `${DASHBOARD_PREFIX}/invite#${made.token}` }, 201);
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/invitations/{invitation}/revoke',
      body: 'none',
      access: 'session',
      handler: async (req) =>
        ok(await revokeInvitation(d, s(req), req.params.account!, req.params.invitation!)),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/webhooks',
      body: 'none',
      access: 'session',
      handler: async (req) =>
        ok({ data: await tenantWebhooks(d, ownerTenant(req)), max: WEBHOOK_LIMITS.endpointsPerAccount }),
    },
    {
      method: 'POST',
      path: '/accounts/{account}/webhooks',
      body: 'json',
      access: 'session',
      handler: async (req) => {
        allowOnly(req.json, ['mode', 'url', 'events', 'description']);
        const tenant = ownerTenant(req, oneOf('mode', req.json.mode, MODES));
        const description = req.json.description ?? '';
        if (typeof description !== 'string' || description.length > 200)
          throw invalid('description', 'text of at most 200 characters', description);
        const made = await addWebhook(d, {
          account: tenant.accountId,
          mode: tenant.mode,
          url: req.json.url,
          events: req.json.events,
          description: description.trim(),
        });
        return ok(made, 201);
      },
    },
    {
      method: 'POST',
      path: '/accounts/{account}/webhooks/{hook}/test',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(await sendTestEvent(d, ownerTenant(req), req.params.hook!), 202),
    },
    {
      method: 'POST',
      path: '/accounts/{account}/webhooks/{hook}/delete',
      body: 'none',
      access: 'session',
      handler: async (req) => ok(endpointView(await removeWebhook(d, req.params.hook!, ownerTenant(req)))),
    },
    {
      method: 'GET',
      path: '/accounts/{account}/webhooks/deliveries',
      body: 'none',
      access: 'session',
      handler: async (req) => {
        const { limit, cursor, rest } = listParams(req, ['mode', 'endpoint']);
        const tenant = ownerTenant(req, oneOf('mode', rest.mode, MODES));
        return ok(
          await listDeliveries(d, {
            limit,
            ...(cursor ? { cursor } : {}),
            accountId: tenant.accountId,
            mode: tenant.mode,
            ...(rest.endpoint ? { endpointId: rest.endpoint } : {}),
          }),
        );
      },
    },
  ];
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

// The app's files, read once. A missing build answers 503 with how to make it.
const DIST = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));
const files = new Map<string, Buffer | null>();
function file(name: string): Buffer | null {
  if (!files.has(name)) {
    try {
      files.set(name, readFileSync(DIST + name));
    } catch {
      files.set(name, null);
    }
  }
  return files.get(name)!;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** The page's policy: this server only, nothing framed, no inline script. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";
const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

function staticReply(path: string): Reply {
  const rest = path.slice(DASHBOARD_PREFIX.length).replace(/^\/+/, '');
  // Built assets carry a content hash in their names: kept for a year. Anything else is a page
  // of the app, which routes itself: index.html, never cached.
  if (rest.startsWith('assets/') && !rest.includes('..') && /^[\w./-]+$/.test(rest)) {
    const bytes = file(rest);
    if (bytes)
      return {
        status: 200,
        headers: { ...PAGE_HEADERS, 'Cache-Control': 'public, max-age=31536000, immutable' },
        raw: { contentType: TYPES[extname(rest)] ?? 'application/octet-stream', bytes },
      };
    throw new ApiError('ENDPOINT_NOT_FOUND', `${path.slice(0, 100)} is not a file of the dashboard`);
  }
  const page = file('index.html');
  if (!page)
    return {
      status: 503,
      headers: { 'Retry-After': '60' },
      raw: {
        contentType: 'text/plain; charset=utf-8',
        bytes: 'The dashboard is not built on this server: run `npm run build:dashboard` (npm ci does it).\n',
      },
    };
  return {
    status: 200,
    headers: { ...PAGE_HEADERS, 'Cache-Control': 'no-cache' },
    raw: { contentType: TYPES['.html']!, bytes: page },
  };
}

export interface DashboardApi {
  owns(path: string): boolean;
  /** The largest body a dashboard call of this method and path takes: an image's, a font's, or JSON's. */
  bodyLimit(method: string, path: string): number;
  handle(req: ApiRequest, seen: { route?: string; account?: string }): Promise<Reply>;
}

export function createDashboardApi(d: ApiDeps, log: Logger): DashboardApi {
  const router = new Router(routes(d, log));

  async function route(req: ApiRequest, seen: { route?: string }): Promise<Reply> {
    if (!req.path.startsWith(`${DASHBOARD_API}/`)) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new ApiError(
          'ENDPOINT_NOT_FOUND',
          `${req.method} is not accepted on ${req.path.slice(0, 100)}`,
        );
      seen.route = DASHBOARD_PREFIX;
      return staticReply(req.path);
    }
    const m = router.match(req.method, req.path.slice(DASHBOARD_API.length));
    if (!m.route)
      throw new ApiError(
        'ENDPOINT_NOT_FOUND',
        m.allowed.length
          ? `${req.method} is not accepted on ${req.path}; it takes ${m.allowed.join(', ')}`
          : `${req.method} ${req.path.slice(0, 100)} is not a dashboard endpoint`,
      );
    seen.route = `${DASHBOARD_API}${m.route.path}`;
    if (req.method !== 'GET') crossSite(req);
    const token = cookieOf(req);
    const current = token ? await session(d, token) : null;
    if (m.route.access === 'session') {
      if (!current) throw new ApiError('UNAUTHORIZED', 'sign in first: there is no session, or it ended');
      if (req.method !== 'GET' && !csrfMatches(current.token, header(req, 'x-csrf-token')))
        throw new ApiError('FORBIDDEN', 'X-CSRF-Token must be the csrfToken of GET /dashboard/v1/session');
    }
    const json = m.route.body === 'json' ? objectBody(parseJsonBody(req.body)) : {};
    if (m.route.body === 'image' && req.body.byteLength === 0)
      throw new Refusal('invalid', 'the body must be the image, PNG or JPEG; it was empty', {
        field: 'body',
      });
    if (m.route.body === 'font' && req.body.byteLength === 0)
      throw new Refusal('invalid', 'the body must be the font file, TTF or OTF; it was empty', {
        field: 'body',
      });
    return m.route.handler({ ...req, params: m.params, json, session: current });
  }

  return {
    owns: (path) => path === DASHBOARD_PREFIX || path.startsWith(`${DASHBOARD_PREFIX}/`),
    bodyLimit: (method, path) => {
      const kind = path.startsWith(`${DASHBOARD_API}/`)
        ? router.bodyKind(method, path.slice(DASHBOARD_API.length))
        : undefined;
      return kind === 'image'
        ? d.config.assetMaxBytes
        : kind === 'font'
          ? FONT_MAX_BYTES
          : d.config.bodyLimitBytes;
    },
    async handle(req, seen) {
      const reply = await route(req, seen).catch((err: unknown) =>
        errorReply(publicError(err, req, log), req, {}),
      );
      reply.headers = {
        ...reply.headers,
        'X-Request-ID': req.id,
        'Cache-Control': reply.headers?.['Cache-Control'] ?? 'no-store',
      };
      return reply;
    },
  };
}

/**
 * A state-changing call must come from this origin: a browser says where a request comes from
 * (Origin, Sec-Fetch-Site), and one from another site is refused before anything is read.
 */
function crossSite(req: ApiRequest): void {
  const site = header(req, 'sec-fetch-site');
  const origin = header(req, 'origin');
  const host = header(req, 'host');
  if (site && site !== 'same-origin' && site !== 'none')
    throw new ApiError('FORBIDDEN', `a dashboard call must come from the dashboard itself, not ${site}`);
  if (origin && host && origin.replace(/^https?:\/\//, '') !== host)
    throw new ApiError(
      'FORBIDDEN',
      `a dashboard call must come from the dashboard itself, not ${origin.slice(0, 80)}`,
    );
}
