// HTTP spoken byte by byte over a socket, as a reverse proxy or an attacker speaks it: what was
// sent, what came back split into responses, and whether the server closed the connection.
import net from 'node:net';
import { rawExchange } from './server.ts';

export interface Parsed {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/** Splits what came back into responses; HEAD responses (by position in `methods`) have no body. */
export function responses(raw: string, methods: string[] = []): Parsed[] {
  const out: Parsed[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) throw new Error(`a response head is cut off: ${JSON.stringify(raw.slice(at, at + 200))}`);
    const [line, ...fields] = raw.slice(at, end).split('\r\n');
    const headers: Record<string, string[]> = {};
    for (const f of fields) {
      const i = f.indexOf(':');
      const name = f.slice(0, i).toLowerCase();
      headers[name] = [...(headers[name] ?? []), f.slice(i + 1).trim()];
    }
    const status = Number(line!.split(' ')[1]);
    const length = methods[out.length] === 'HEAD' ? 0 : Number(headers['content-length']?.[0] ?? 0);
    out.push({ status, headers, body: raw.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

export const errorOf = (r: Parsed) =>
  (JSON.parse(r.body) as { error: { code: string; message: string; field?: string; requestId: string } })
    .error;

/** Sends bytes (parts 100 ms apart) and reports what came back and whether the server closed. */
export async function exchange(port: number, bytes: string | string[], ms = 1500) {
  const started = Date.now();
  let closedByServer = false;
  const raw = await rawExchange(
    port,
    (s) => {
      // Closed by the server: ended (FIN) or reset (an error); a timeout closes it from this side.
      s.on('end', () => {
        closedByServer = true;
      });
      s.on('error', () => {
        closedByServer = true;
      });
      const parts = Array.isArray(bytes) ? bytes : [bytes];
      let i = 0;
      const next = () => {
        if (i < parts.length && !s.destroyed) s.write(parts[i++]!, () => setTimeout(next, 100));
      };
      next();
    },
    ms,
  );
  return { raw, closedByServer, ms: Date.now() - started };
}

/**
 * HTTP/1.0 is answered wherever clients connect (the embedded default's check, the farm's edge):
 * closed after the response unless keep-alive is asked for, kept and confirmed when it is.
 */
export async function answersHttp10(
  t: import('tap').Test,
  port: number,
  key: string,
  template: string,
): Promise<void> {
  const plain = await exchange(port, 'GET /api/v1/openapi.json HTTP/1.0\r\n\r\n');
  const [doc] = responses(plain.raw);
  t.equal(doc?.status, 200, 'an HTTP/1.0 request without Host is answered');
  t.ok(doc && JSON.parse(doc.body).openapi, 'with the whole document');
  t.ok(plain.closedByServer, 'and the server closes the connection after it');

  const kept = await exchange(port, [
    `GET /api/v1/templates/${template} HTTP/1.0\r\nConnection: keep-alive\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    'GET /nowhere HTTP/1.0\r\n\r\n',
  ]);
  const [first, second] = responses(kept.raw);
  t.equal(first?.status, 200);
  t.same(first?.headers.connection, ['keep-alive'], 'keep-alive is confirmed to the HTTP/1.0 client');
  t.equal(second?.status, 404, 'and a second request on the same connection is answered');
  t.ok(kept.closedByServer, 'which, without keep-alive, closes it');
}

/**
 * A GET read as a slow client reads (a pause after every 256 KiB, so the server's socket fills):
 * the raw bytes that came back until the server closed the connection.
 */
export function slowGet(port: number, path: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const { connect } = net;
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let received = 0;
    const fields = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${fields}Connection: close\r\n\r\n`),
    );
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      received += d.length;
      if (received % (256 * 1024) < d.length) {
        socket.pause();
        setTimeout(() => socket.resume(), 2);
      }
    });
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
}

/** A raw response's head (lower-cased) and its body, de-chunked; `ended` once its last chunk came. */
export function readChunked(raw: Buffer): { head: string; body: Buffer; ended: boolean } {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = raw.toString('latin1', 0, headEnd).toLowerCase();
  const parts: Buffer[] = [];
  let at = headEnd + 4;
  const cut = () => ({ head, body: Buffer.concat(parts), ended: false });
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol === -1) return cut();
    const size = Number.parseInt(raw.toString('latin1', at, eol), 16);
    if (Number.isNaN(size) || eol + 4 + size > raw.length) return cut();
    if (size === 0)
      return { head, body: Buffer.concat(parts), ended: raw.toString('latin1', eol, eol + 4) === '\r\n\r\n' };
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    if (raw.toString('latin1', eol + 2 + size, eol + 4 + size) !== '\r\n') return cut();
    at = eol + 4 + size;
  }
}

/** Declared lengths past any limit: past 32 bits, past 2^53 and up to the largest 64-bit one. */
export const HUGE_LENGTHS = [
  '2147483648',
  '4294967296',
  '5000000000',
  '1000000000000',
  '18446744073709551615',
];

/**
 * What clients connect to answers malformed requests at once (the embedded default's check, the
 * farm's edge): a declared length over the limit of any size is 413 naming the limit and the
 * length as sent; a header value with NUL or another control byte is 400; each in the API's
 * error format, and the connection closed.
 */
export async function refusesMalformedAtOnce(
  t: import('tap').Test,
  port: number,
  key: string,
  lengths: readonly string[] = HUGE_LENGTHS,
): Promise<void> {
  for (const length of lengths) {
    const r = await exchange(
      port,
      `POST /api/v1/generations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${length}\r\n\r\n{`,
    );
    const [res] = responses(r.raw);
    t.equal(res?.status, 413, `Content-Length ${length}: 413`);
    if (res?.status !== 413) continue;
    t.match(
      errorOf(res).message,
      new RegExp(`^the body must be at most \\d+ bytes, got ${length} \\(Content-Length\\)$`),
    );
    t.equal(errorOf(res).field, 'body');
    t.equal(errorOf(res).requestId, res.headers['x-request-id']?.[0], 'with its request id');
    t.ok(r.closedByServer, `Content-Length ${length}: the connection is closed`);
  }
  for (const byte of ['\x00', '\x01', '\x08', '\x1b', '\x7f']) {
    const code = `0x${byte.charCodeAt(0).toString(16).padStart(2, '0')}`;
    const r = await exchange(
      port,
      `GET /api/v1/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Trace: a${byte}b\r\n\r\n`,
    );
    const [res] = responses(r.raw);
    t.equal(res?.status, 400, `a header value with ${code}: 400`);
    if (res?.status !== 400) continue;
    t.match(errorOf(res).message, /holds a control character/, `${code}: named`);
    t.equal(errorOf(res).field, 'headers');
    t.ok(r.closedByServer, `${code}: the connection is closed`);
  }
}
