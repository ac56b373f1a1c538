// A request as the transport hands it over: copied out of uWebSockets.js's memory, with the
// client's address asked for only when needed, and the framing the transport cannot refuse
// itself checked when no check stands in front.
import { isIP } from 'node:net';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { newId } from '../../lib/ids.ts';
import { addressText } from '../../lib/ip-text.ts';
import type { ApiRequest } from '../types.ts';
import { FRONT_HEADER, type FramingRefusal, readFront } from './framing.ts';

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * Everything needed of a request, copied before the transport reuses its memory: headers (a
 * repeated one keeps every value), and the client's address, from the check in front when it is
 * there (its header, proven by the secret, is removed) or else from the socket.
 */
export function copyRequest(
  res: HttpResponse,
  r: HttpRequest,
  from: Origin,
): { req: Omit<ApiRequest, 'body'>; front: ReturnType<typeof readFront> } {
  const receivedAt = new Date();
  // Without a prototype: a header named `__proto__` is a header like any other.
  const headers: Record<string, string | string[]> = Object.create(null);
  r.forEach((k, v) => {
    const seen = headers[k];
    if (seen === undefined) headers[k] = v;
    else headers[k] = Array.isArray(seen) ? [...seen, v] : [seen, v];
  });
  const mark = headers[FRONT_HEADER];
  let front: ReturnType<typeof readFront> = null;
  if (mark !== undefined) {
    front = readFront(typeof mark === 'string' ? mark : undefined, from.secret);
    delete headers[FRONT_HEADER];
  }
  let peer = front?.peer;
  const req = {
    id: newId('req'),
    // Asking the socket costs a system call (as much as the rest of a small request), so it is
    // asked only when something needs the address; a response already gone has none to give.
    // Its bytes, not the transport's text: a copy less, and IPv6 written as configured (::1).
    peer: () => {
      if (peer === undefined) {
        try {
          peer = peerOf(addressText(new Uint8Array(res.getRemoteAddress())), headers, from.trusted);
        } catch {
          peer = '-';
        }
      }
      return peer;
    },
    method: r.getMethod().toUpperCase(),
    path: r.getUrl(),
    query: r.getQuery() ?? '',
    headers,
    receivedAt,
  };
  return { req, front };
}

/** Where a request came from: the check in front's secret, the edges whose word is taken. */
export interface Origin {
  secret: string | null;
  trusted: ReadonlySet<string>;
}

/**
 * The client's address: the socket's (as addressText writes it, as TRUSTED_PROXIES is read), or,
 * when the socket is a trusted edge's, the last address of `X-Forwarded-For` (the edge replaces
 * the header, so a client cannot choose it).
 */
export function peerOf(socket: string, headers: ApiRequest['headers'], trusted: ReadonlySet<string>): string {
  if (trusted.size === 0 || !trusted.has(socket)) return socket;
  const forwarded = headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.at(-1) : forwarded)?.split(',').at(-1)?.trim();
  return last && isIP(last) !== 0 ? last : socket;
}

/**
 * Without the check in front, the transport takes the first of two Content-Length headers and
 * reads no Transfer-Encoding but `chunked`: such a request is refused and its connection closed.
 * (What follows on the same connection is still read by the transport: only the check in front
 * closes that door; docs/operations.md.)
 */
export function directFraming(headers: ApiRequest['headers']): FramingRefusal | null {
  const length = headers['content-length'];
  if (Array.isArray(length) && new Set(length).size > 1)
    return {
      status: 400,
      message: `Content-Length is sent twice with different values (${length.join(', ')})`,
    };
  const encoding = headers['transfer-encoding'];
  if (encoding !== undefined && (typeof encoding !== 'string' || encoding.toLowerCase() !== 'chunked'))
    return {
      status: 400,
      message: `Transfer-Encoding may only be "chunked", got ${JSON.stringify(encoding)}`,
    };
  if (encoding !== undefined && length !== undefined)
    return { status: 400, message: 'a request may carry Content-Length or Transfer-Encoding, not both' };
  return null;
}
