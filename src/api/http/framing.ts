// HTTP/1.x message framing, checked strictly: where one request ends and the next begins. The
// transport behind the framing check (uWebSockets.js) answers nothing to HTTP/1.0, drops heads
// of more than 48 fields or lengths of ten digits, takes the first of two Content-Length headers
// and ignores what Transfer-Encoding says; so every head is read here first, anything ambiguous
// is refused, and only unambiguous HTTP/1.1 is passed on. Pure functions and byte scanners: no
// sockets (src/api/front.ts wires them).

/** Request line and header fields together, in bytes. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Header fields a request may carry: the transport behind takes 48, two are kept for the check's own. */
export const MAX_FIELDS = 46;
/** The header the check adds to every request it passes on (and refuses from clients). */
export const FRONT_HEADER = 'x-scriptorium-front';

export interface FramingRefusal {
  status: 400 | 413 | 431 | 501;
  message: string;
}

/**
 * The methods the transport behind reads; it closes the connection on any other token (RFC 9110
 * §9.1: methods are case-sensitive, so `get` is another method), so those are answered 501 here.
 */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE'];
const KNOWN = new Set(KNOWN_METHODS);
/**
 * Header names the transport behind reads: letters, digits and `-`. It never answers a request
 * with any other token character in a name (`X_Trace`, `api.key`), so such fields are dropped
 * here and the request served without them, as nginx does by default.
 */
const PLAIN_NAME = /^[0-9A-Za-z-]+$/;

export type BodyFraming =
  | { kind: 'none' }
  /** `declared`: the length as sent (any number of digits; `length` is exact up to 2^53). */
  | { kind: 'length'; length: number; declared: string }
  | { kind: 'chunked' };

export interface RequestHead {
  method: string;
  /** Origin form: `/path?query` (an absolute-form target is cut to it). */
  target: string;
  http10: boolean;
  /** An HTTP/1.0 request that asked for `Connection: keep-alive`. */
  keepAlive: boolean;
  /** Whether the request says `Connection: close` itself. */
  closes: boolean;
  hasHost: boolean;
  /** An upgrade (WebSocket) request: after a 101 the connection is a tunnel. */
  upgrade: boolean;
  body: BodyFraming;
  /** Offset, in the head's text, of the first header line (after the request line's CRLF). */
  fieldsAt: number;
  /**
   * When fields were dropped (names the transport cannot read): the header lines to pass on
   * instead of the head's own, each ending in CRLF, followed by the blank line.
   */
  kept?: string;
  /** Names of the fields dropped. */
  dropped: string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Field values are visible characters, spaces, tabs and obs-text; never CR, LF, NUL or other controls. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}
const TARGET = /^[\x21-\x7e]+$/;
/** A length of any size: one too large for any route is refused 413 naming it as sent, never 400. */
const DIGITS = /^[0-9]+$/;

const refuse = (status: FramingRefusal['status'], message: string): FramingRefusal => ({ status, message });
const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

function originForm(target: string): string | null {
  if (target.startsWith('/')) return target;
  const m = /^https?:\/\/[^/?#]+([/?][^#]*)?$/i.exec(target);
  if (!m) return null;
  const rest = m[1] ?? '/';
  return rest.startsWith('?') ? `/${rest}` : rest;
}

const hasToken = (value: string, token: string) =>
  value
    .toLowerCase()
    .split(',')
    .some((t) => t.trim() === token);

/**
 * Reads a request head: `text` is its bytes as latin1, without the blank line that ends it.
 * Anything a second parser could read otherwise is refused.
 */
export function readRequestHead(text: string): RequestHead | FramingRefusal {
  let lineEnd = text.indexOf('\r\n');
  if (lineEnd === -1) lineEnd = text.length;
  const line = text.slice(0, lineEnd);
  const parts = line.split(' ');
  if (parts.length !== 3)
    return refuse(400, `the request line must be "METHOD target HTTP/1.1", got ${shown(line)}`);
  const [method, rawTarget, version] = parts as [string, string, string];
  if (!TOKEN.test(method)) return refuse(400, `the request method must be a token, got ${shown(method)}`);
  if (!KNOWN.has(method))
    return refuse(
      501,
      `method ${shown(method)} is not implemented; this server knows ${KNOWN_METHODS.join(', ')}`,
    );
  if (version !== 'HTTP/1.1' && version !== 'HTTP/1.0')
    return refuse(400, `the HTTP version must be HTTP/1.1 or HTTP/1.0, got ${shown(version)}`);
  const target = TARGET.test(rawTarget) ? originForm(rawTarget) : null;
  if (target === null)
    return refuse(400, `the request target must be a path (or an http URL), got ${shown(rawTarget)}`);
  const http10 = version === 'HTTP/1.0';

  let fields = 0;
  let length: string | null = null;
  let encoding: string | null = null;
  let connection = '';
  let hasHost = false;
  let upgrade = false;
  const dropped: string[] = [];
  let kept = '';
  const fieldsAt = lineEnd + 2;
  let at = fieldsAt;
  while (at < text.length) {
    let end = text.indexOf('\r\n', at);
    if (end === -1) end = text.length;
    const field = text.slice(at, end);
    at = end + 2;
    if (++fields > MAX_FIELDS)
      return refuse(431, `a request may carry at most ${MAX_FIELDS} header fields, got more`);
    const colon = field.indexOf(':');
    const name = colon > 0 ? field.slice(0, colon) : '';
    if (!TOKEN.test(name))
      return refuse(
        400,
        field.startsWith(' ') || field.startsWith('\t')
          ? 'header fields may not be folded onto a new line'
          : `header field ${shown(field)} must be "name: value"`,
      );
    const value = field.slice(colon + 1).trim();
    if (hasControl(value)) return refuse(400, `header ${name} holds a control character`);
    if (!PLAIN_NAME.test(name)) {
      dropped.push(name);
      continue;
    }
    kept += `${field}\r\n`;
    switch (name.toLowerCase()) {
      case 'content-length':
        if (!DIGITS.test(value))
          return refuse(400, `Content-Length must be a number of bytes, got ${shown(value)}`);
        if (length !== null && length.replace(/^0+(?=.)/, '') !== value.replace(/^0+(?=.)/, ''))
          return refuse(400, `Content-Length is sent twice with different values (${length}, ${value})`);
        length = value;
        break;
      case 'transfer-encoding':
        if (encoding !== null) return refuse(400, 'Transfer-Encoding may be sent once');
        encoding = value;
        break;
      case 'host':
        hasHost = true;
        break;
      case 'connection':
        connection += `${value},`;
        break;
      case 'upgrade':
        upgrade = true;
        break;
      case FRONT_HEADER:
        return refuse(400, `header ${name} is reserved`);
    }
  }
  if (!hasHost && !http10) return refuse(400, 'an HTTP/1.1 request must carry a Host header');

  let body: BodyFraming = { kind: 'none' };
  if (encoding !== null) {
    if (http10) return refuse(400, 'Transfer-Encoding is not defined for HTTP/1.0');
    if (length !== null)
      return refuse(400, 'a request may carry Content-Length or Transfer-Encoding, not both');
    if (encoding.toLowerCase() !== 'chunked')
      return refuse(400, `Transfer-Encoding may only be "chunked", got ${shown(encoding)}`);
    body = { kind: 'chunked' };
  } else if (length !== null && Number(length) > 0) {
    body = { kind: 'length', length: Number(length), declared: length };
  }
  return {
    method,
    target,
    http10,
    keepAlive: http10 && hasToken(connection, 'keep-alive'),
    closes: hasToken(connection, 'close'),
    hasHost,
    upgrade: upgrade && hasToken(connection, 'upgrade'),
    body,
    fieldsAt,
    dropped,
    ...(dropped.length ? { kept: `${kept}\r\n` } : {}),
  };
}

export const isRefusal = (x: RequestHead | FramingRefusal): x is FramingRefusal => 'status' in x;

const CR = 0x0d;
const LF = 0x0a;
/** A chunk-size line (size and extensions) or a trailer line may be this long. */
const CHUNK_LINE_MAX = 1024;
const TRAILERS_MAX = 8 * 1024;

/**
 * Follows a chunked body through any number of buffers and says where it ends. Throws on a
 * malformed body (the connection cannot be trusted past it).
 */
export class ChunkedScanner {
  private state: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  private line = '';
  private left = 0;
  private trailers = 0;

  /** The index just past the body's end in `buf` (from `start`), or -1 when it goes on. */
  scan(buf: Uint8Array, start = 0): number {
    let i = start;
    while (i < buf.length) {
      switch (this.state) {
        case 'data': {
          const take = Math.min(this.left, buf.length - i);
          i += take;
          this.left -= take;
          if (this.left === 0) {
            this.state = 'data-end';
            this.line = '';
          }
          break;
        }
        case 'size':
        case 'data-end':
        case 'trailer': {
          const c = buf[i++]!;
          if (c !== LF) {
            this.line += String.fromCharCode(c);
            if (this.line.length > CHUNK_LINE_MAX) throw new Error('a chunk line is too long');
            if (this.state === 'trailer' && ++this.trailers > TRAILERS_MAX)
              throw new Error('chunked trailers are too long');
            break;
          }
          if (!this.line.endsWith('\r')) throw new Error('a chunk line must end in CRLF');
          const line = this.line.slice(0, -1);
          this.line = '';
          if (this.state === 'data-end') {
            if (line !== '') throw new Error('chunk data must be followed by CRLF');
            this.state = 'size';
          } else if (this.state === 'size') {
            const size = /^([0-9A-Fa-f]{1,12})(?:[ \t]*;.*)?$/.exec(line);
            if (!size || line.includes('\r')) throw new Error(`bad chunk size line ${shown(line)}`);
            this.left = Number.parseInt(size[1]!, 16);
            this.state = this.left === 0 ? 'trailer' : 'data';
          } else if (line === '') {
            return i;
          } else if (line.indexOf(':') <= 0) {
            throw new Error('a chunked trailer must be "name: value"');
          }
          break;
        }
      }
    }
    return -1;
  }
}

/** Index of the CRLFCRLF that ends a head in `buf`, searching from `from`; -1 if not there yet. */
export function headEnd(buf: Buffer, from = 0): number {
  return buf.indexOf('\r\n\r\n', Math.max(0, from - 3), 'latin1');
}

/** Leading empty lines before a request line are ignored (RFC 9112 §2.2). */
export function skipEmptyLines(buf: Buffer): number {
  let i = 0;
  while (i < buf.length && (buf[i] === CR || buf[i] === LF)) i++;
  return i;
}

/** What the body of a response to `method` with this head is. */
export function responseFraming(
  head: string,
  method: string,
): BodyFraming | 'interim' | 'switch' | 'to-close' {
  const status = Number(head.slice(9, 12));
  if (status === 101) return 'switch';
  if (status >= 100 && status < 200) return 'interim';
  if (method === 'HEAD' || status === 204 || status === 304) return { kind: 'none' };
  const lower = head.toLowerCase();
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) return { kind: 'chunked' };
  const m = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  if (m)
    return Number(m[1]) === 0 ? { kind: 'none' } : { kind: 'length', length: Number(m[1]), declared: m[1]! };
  return 'to-close';
}

/** A refused body announced larger than this is not drained: the connection is closed. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

export const tooLargeMessage = (limit: number, received: string) =>
  `the body must be at most ${limit} bytes, got ${received}`;

/** The value of the front header: the secret, the client's address, and a refusal if any. */
export function frontValue(secret: string, peer: string, refusal?: FramingRefusal): string {
  return refusal
    ? `${secret} ${peer} ${refusal.status} ${Buffer.from(refusal.message).toString('base64url')}`
    : `${secret} ${peer}`;
}

/** Reads a front header back; null when it is absent or not ours. */
export function readFront(
  value: string | undefined,
  secret: string | null,
): { peer: string; refusal?: FramingRefusal } | null {
  if (!value || !secret) return null;
  const [s, peer, status, message] = value.split(' ');
  if (s !== secret || !peer) return null;
  if (!status) return { peer };
  return {
    peer,
    refusal: {
      status: Number(status) as FramingRefusal['status'],
      message: Buffer.from(message ?? '', 'base64url').toString(),
    },
  };
}
