// The plain objects the HTTP layer speaks: a request copied out of the socket, the routes every
// surface declares, and a reply to write back. Handlers are functions from one to the other,
// testable without a socket.
import type { Caller } from '../app/auth.ts';
import type { Session } from '../app/dashboard.ts';
import type { IdempotencyClaim } from '../app/idempotency.ts';

export interface ApiRequest {
  /** `req_…`, sent back as X-Request-ID and in every error body. */
  id: string;
  /** Upper case: GET, POST, … */
  method: string;
  /** The path without the query string. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** Header names in lower case; a header sent more than once keeps every value. */
  headers: Readonly<Record<string, string | readonly string[]>>;
  body: Buffer;
  receivedAt: Date;
  /**
   * The client's address: the connection's peer, or the trusted edge's word for it. Read when asked
   * (the transport pays a system call for it) and kept.
   */
  peer(): string;
  /**
   * Whether the answer is no longer wanted: the client went away, or the server is stopping. A
   * handler that holds a request (`?wait=`) stops at it. Absent where neither can happen.
   */
  left?(): boolean;
}

/**
 * Who may pass a route, and what passing gives its handler: `key`, an API key (the public API;
 * its caller, under the key's rate limit); `session`, a dashboard session (with its CSRF token on
 * a change); `guest`, the dashboard's doors (sign-up, sign-in, invitations: a session if there is
 * one); `admin`, the operator's token; `open`, anybody (probes, the API's document, pages).
 */
export type Door = 'key' | 'session' | 'guest' | 'admin' | 'open';

interface Opened {
  key: { caller: Caller };
  session: { session: Session };
  guest: { session: Session | null };
  admin: object;
  open: object;
}

/** A request that passed its route's door. */
export type RouteRequest<D extends Door = Door> = ApiRequest &
  Opened[D] & {
    params: Readonly<Record<string, string>>;
    /** The parsed body of a route that takes JSON. */
    json: D extends 'key' ? unknown : Record<string, unknown>;
    /** The `Idempotency-Key` this request holds, on a route that keeps its answers. */
    idempotency?: IdempotencyClaim;
  };

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body; or `raw` bytes with their `contentType`. */
  json?: unknown;
  raw?: { contentType: string; bytes: Uint8Array | string };
  /**
   * A body sent as it is read (a download): never held whole, paced by the client. Without a
   * `size` (a body made as it is sent) it goes out chunked, its length unknown until its end.
   */
  stream?: { contentType: string; size?: number; chunks: AsyncIterable<Uint8Array>; close(): void };
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What a body is: nothing; JSON (512 KiB), any value under `key` (the use-case reads it) and an
 * object under every other door; a batch's JSON (BATCH_BODY_LIMIT_BYTES, 32 MiB); an image's
 * bytes (ASSET_MAX_BYTES); a font file's (20 MiB).
 */
export type BodyKind = 'none' | 'json' | 'batch' | 'image' | 'font';

export interface Route<D extends Door = Door> {
  method: 'GET' | 'POST' | 'DELETE';
  /** The whole path, with `{name}` parameters: `/api/v1/templates/{id}`. */
  path: string;
  door: D;
  body: BodyKind;
  /**
   * What `Idempotency-Key` means on a `key` route: `kept`, the first answer is kept and replayed
   * (see ./idempotency.ts); `natural`, the request is idempotent by itself (a cancel) and the
   * header is accepted and needs nothing. A POST without either refuses the header.
   */
  idempotency?: 'kept' | 'natural';
  handler(req: RouteRequest<D>): Promise<Reply> | Reply;
}

/** A route of any door, as a surface lists them. */
export type AnyRoute = { [D in Door]: Route<D> }[Door];

/** A surface's routes of one door, with paths under the surface's prefix. */
export type Routes<D extends Door> = Omit<Route<D>, 'door'>[];

/** Routes of one door under one prefix: `under('/api/v1', 'key', [{ method, path: '/fonts', … }])`. */
export function under<D extends Door>(prefix: string, door: D, routes: Routes<D>): AnyRoute[] {
  return routes.map((r) => ({ ...r, door, path: `${prefix}${r.path}` }) as unknown as AnyRoute);
}

/** A single header value: the first of repeated ones. */
export function header(req: ApiRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : v?.[0];
}

export const ok = (json: unknown, status = 200): Reply => ({ status, json });

/** A download: `body` streamed as a file named `filename`. */
/** Bytes answered as a file to save, named `filename`. */
export const attachedBytes = (filename: string, contentType: string, bytes: Uint8Array): Reply => ({
  status: 200,
  headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
  raw: { contentType, bytes },
});

export const attachment = (
  filename: string,
  contentType: string,
  body: Omit<NonNullable<Reply['stream']>, 'contentType'>,
): Reply => ({
  status: 200,
  headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
  stream: { contentType, ...body },
});
