// The plain objects the HTTP layer speaks: a request copied out of the socket, and a reply to
// write back. Handlers are functions from one to the other, testable without a socket.
import type { Caller } from '../app/auth.ts';
import type { IdempotencyClaim } from '../store/index.ts';

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
}

/** A request that passed authentication and routing. */
export interface RouteRequest extends ApiRequest {
  caller: Caller;
  params: Readonly<Record<string, string>>;
  /** The parsed body of a route that takes JSON. */
  json: unknown;
  /** The `Idempotency-Key` this request holds, on a route that keeps its answers. */
  idempotency?: IdempotencyClaim;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body; or `raw` bytes with their `contentType`. */
  json?: unknown;
  raw?: { contentType: string; bytes: Uint8Array | string };
  /** A body sent as it is read (a download): never held whole, paced by the client. */
  stream?: { contentType: string; size: number; chunks: AsyncIterable<Uint8Array>; close(): void };
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export type Handler = (req: RouteRequest) => Promise<Reply> | Reply;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Under /api/v1, with `{name}` parameters: `/templates/{id}`. */
  path: string;
  /** What the body is: nothing, a JSON document (512 KiB), or raw image bytes (5 MiB). */
  body: 'none' | 'json' | 'image';
  /**
   * What `Idempotency-Key` means here: `kept`, the first answer is kept and replayed (the route
   * settles it in its commit, see ./idempotency.ts); `natural`, the request is idempotent by
   * itself (a cancel) and the header is accepted and needs nothing. A POST without either refuses
   * the header.
   */
  idempotency?: 'kept' | 'natural';
  handler: Handler;
}

/** A single header value: the first of repeated ones. */
export function header(req: ApiRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : v?.[0];
}
