// The dashboard's single-page app under /dashboard, built by Vite into dist/dashboard: served
// where no route of the dashboard's API matches, on GET and HEAD.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { apiRefusal } from '../../domain/errors.ts';
import { packageFile } from '../../lib/package-files.ts';
import { DASHBOARD_PREFIX } from '../surfaces.ts';
import type { ApiRequest, Reply } from '../types.ts';

// The app's files, read once. A missing build answers 503 with how to make it.
const DIST = `${packageFile('dist', 'dashboard')}/`;
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
    throw apiRefusal('ENDPOINT_NOT_FOUND', `${path.slice(0, 100)} is not a file of the dashboard`);
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

/** A file or page of the app, or null for a method that reads nothing. */
export const pageReply = (req: ApiRequest): Reply | null =>
  req.method === 'GET' || req.method === 'HEAD' ? staticReply(req.path) : null;
