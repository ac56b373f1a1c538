// Where each surface of the HTTP layer lives, which door guards a path of it that no route
// matches, how it words "no such endpoint", and the headers every answer of it carries.
import type { ApiRequest, Door, Reply } from './types.ts';
import type { Seen } from './doors.ts';

export const API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';
export const ADMIN_PREFIX = '/admin/v1';
export const METRICS_PATH = '/metrics';
export const LIVE_PATH = `${ADMIN_PREFIX}/live`;
export const DASHBOARD_PREFIX = '/dashboard';
export const DASHBOARD_API = '/dashboard/v1';
const DOCS_ROUTE = '/docs';
/** What requests for the dashboard's pages and the API reference are counted as, whatever their path. */
export const FILE_ROUTES = [DASHBOARD_PREFIX, DOCS_ROUTE] as const;

export interface Surface {
  name: 'public' | 'admin' | 'dashboard' | 'pages' | 'root';
  /** The door of a path of this surface that no route matches: it is passed before the 404. */
  door: Door;
  /** Why a method and path that no route matches are not an endpoint. */
  notFound(req: ApiRequest, allowed: readonly string[]): string;
  /** The headers an answer starts with; the route's own are laid over them, then `seal`'s. */
  base(req: ApiRequest, seen: Seen): Record<string, string>;
  seal?(req: ApiRequest, headers: Record<string, string>): void;
  /** Files served where no route matches (the dashboard's app, the API reference), by path. */
  files?: { route(req: ApiRequest): string; reply(req: ApiRequest): Reply | null };
}

const notAccepted = (req: ApiRequest, allowed: readonly string[], what: string) =>
  allowed.length
    ? `${req.method} is not accepted on ${req.path}; it takes ${allowed.join(', ')}`
    : `${req.method} ${req.path.slice(0, 100)} is not ${what}`;

export function surfaces(
  limit: { points: number; windowSeconds: number },
  files: { pages(req: ApiRequest): Reply | null; docs(req: ApiRequest): Reply | null },
): (path: string) => Surface {
  const policy = `"per-key";q=${limit.points};w=${limit.windowSeconds}`;
  /** Every public answer says the key's policy, and its state once the key is known (spec §8). */
  const rated = (req: ApiRequest, seen: Seen): Record<string, string> => {
    const h: Record<string, string> = { 'X-Request-ID': req.id, 'RateLimit-Policy': policy };
    if (seen.rate) h.RateLimit = `"per-key";r=${seen.rate.remaining};t=${seen.rate.resetSeconds}`;
    return h;
  };
  const idOnly = (req: ApiRequest, h: Record<string, string>) => {
    h['X-Request-ID'] = req.id;
  };
  /** Dashboard answers are never cached unless they say so (built assets do). */
  const uncached = (req: ApiRequest, h: Record<string, string>) => {
    h['X-Request-ID'] = req.id;
    h['Cache-Control'] ??= 'no-store';
  };
  const pub: Surface = {
    name: 'public',
    door: 'key',
    notFound: (req, allowed) => notAccepted(req, allowed, 'an endpoint of this API'),
    base: rated,
  };
  const admin: Surface = {
    name: 'admin',
    door: 'admin',
    notFound: (req, allowed) => notAccepted(req, allowed, 'an admin endpoint'),
    base: () => ({}),
    seal: idOnly,
  };
  const dashboard: Surface = {
    name: 'dashboard',
    door: 'open',
    notFound: (req, allowed) => notAccepted(req, allowed, 'a dashboard endpoint'),
    base: () => ({}),
    seal: uncached,
  };
  const pages: Surface = {
    ...dashboard,
    name: 'pages',
    notFound: (req) => `${req.method} is not accepted on ${req.path.slice(0, 100)}`,
    files: { route: () => DASHBOARD_PREFIX, reply: files.pages },
  };
  const root: Surface = {
    name: 'root',
    door: 'open',
    notFound: (req) =>
      `${req.method} ${req.path.slice(0, 100)} is not an endpoint; the API is under ${API_PREFIX}`,
    base: rated,
    files: { route: () => DOCS_ROUTE, reply: files.docs },
  };
  return (path) => {
    if (path.startsWith(`${API_PREFIX}/`)) return pub;
    if (path === METRICS_PATH || path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return admin;
    if (path.startsWith(`${DASHBOARD_API}/`)) return dashboard;
    if (path === DASHBOARD_PREFIX || path.startsWith(`${DASHBOARD_PREFIX}/`)) return pages;
    return root;
  };
}
