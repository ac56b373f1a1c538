// The uWebSockets.js transport. uWS rules (each one has bitten someone): copy everything needed
// from the request BEFORE the first await (the request object dies when the handler returns);
// attach onAborted at once (an await without it kills the process when the client leaves); copy
// body chunks (their memory is reused after the callback); count bytes and answer 413 yourself;
// write only inside cork; answer every path (unmatched routes get their connection dropped).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError } from '../../domain/errors.ts';
import { collect } from '../../lib/gc.ts';
import { DRAIN_MAX_BYTES, type FramingRefusal, tooLargeMessage } from './framing.ts';
import { type Front, listenFront } from './front.ts';
import { acceptsGzip, GZIP_MIN_BYTES, gzipped } from './gzip.ts';
import { type LiveFeed, serveLive } from './live.ts';
import { copyRequest, directFraming, type Origin, STATUS_TEXT } from './request.ts';

export type { LiveFeed } from './live.ts';
import type { Api } from '../pipeline.ts';
import { JSON_TYPE, type Reply } from '../types.ts';

// CJS module: named ESM imports typecheck but throw at run time.
const uWS = createRequire(import.meta.url)('uWebSockets.js') as typeof import('uWebSockets.js');

/** The package silently falls back to a slow JS shim when its native binary fails to load. */
export function assertNativeUws(): void {
  if (!String(uWS.App).includes('[native code]') || typeof uWS.getParts !== 'function') {
    throw new Error(
      `uWebSockets.js did not load its native binary for ${process.platform}-${process.arch} (Node ABI ${process.versions.modules}); refusing to serve on the fallback`,
    );
  }
}

export interface HttpServer {
  readonly port: number;
  /** Requests read but not yet answered. */
  inFlight(): number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

interface Exchange {
  res: HttpResponse;
  method: string;
  /** The client takes a gzip-coded body (Accept-Encoding). */
  gzip: boolean;
  aborted: boolean;
  answered: boolean;
  /** Called once when the client goes away (a stream waiting on the socket stops). */
  onAbort?: () => void;
}

export interface ListenOptions {
  host: string;
  port: number;
  live?: LiveFeed;
  /**
   * Read every request head in front of the transport (src/api/front.ts): HTTP/1.0, absolute
   * targets, ambiguous lengths, oversized heads. Off serves the transport on the port directly.
   */
  framingCheck: boolean;
  /** Peers whose `X-Forwarded-For` names the client (the edge in front); empty trusts none. */
  trustedProxies?: readonly string[];
}

export function listen(api: Api, opts: ListenOptions): Promise<HttpServer> {
  assertNativeUws();
  // The check in front proves itself to the transport with this; without it, the header is ignored.
  const secret = opts.framingCheck ? randomBytes(16).toString('hex') : null;
  const from: Origin = { secret, trusted: new Set(opts.trustedProxies ?? []) };
  const app: TemplatedApp = uWS.App();
  const feed = opts.live ? serveLive(app, opts.live, from) : null;
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | null = null;

  const settle = () => {
    inFlight--;
    if (closing && inFlight === 0) drained?.();
  };

  function write(x: Exchange, reply: Reply, closeConnection = false): Promise<void> | undefined {
    if (x.aborted || x.answered) {
      reply.stream?.close();
      return;
    }
    x.answered = true;
    if (reply.stream) return stream(x, reply, reply.stream);
    // A reply without a body (204) has no JSON to write.
    const body = reply.raw ? reply.raw.bytes : reply.json === undefined ? '' : JSON.stringify(reply.json);
    const contentType = reply.raw ? reply.raw.contentType : JSON_TYPE;
    if (contentType.startsWith('application/json') && Buffer.byteLength(body) > GZIP_MIN_BYTES) {
      const vary = { ...reply.headers, Vary: 'Accept-Encoding' };
      if (!x.gzip) return send(x, { ...reply, headers: vary }, body, contentType, closeConnection);
      return gzipped(body).then((coded) => {
        if (x.aborted) return;
        send(
          x,
          { ...reply, headers: { ...vary, 'Content-Encoding': 'gzip' } },
          coded,
          contentType,
          closeConnection,
        );
      });
    }
    send(x, reply, body, contentType, closeConnection);
  }

  function send(
    x: Exchange,
    reply: Reply,
    body: string | Uint8Array,
    contentType: string,
    closeConnection: boolean,
  ): undefined {
    x.res.cork(() => {
      head(x, reply, contentType);
      if (x.method === 'HEAD') headOnly(x, Buffer.byteLength(body), closeConnection || closing);
      else x.res.end(body, closeConnection || closing);
    });
  }

  /**
   * A HEAD answer: the length the GET would have, no body. The transport's own
   * `endWithoutBody(length)` closes the connection, and any argument at all makes it write a
   * second Content-Length; so the length is written as a header and the call gets none. (The
   * connection then stays open even when `close` asks otherwise: the server is stopping, and
   * closes it soon.)
   */
  function headOnly(x: Exchange, length: number | undefined, close: boolean): void {
    if (length !== undefined) x.res.writeHeader('Content-Length', String(length));
    if (close) x.res.writeHeader('Connection', 'close');
    x.res.endWithoutBody();
  }

  function head(x: Exchange, reply: Reply, contentType: string): void {
    x.res.writeStatus(`${reply.status} ${STATUS_TEXT[reply.status] ?? ''}`);
    x.res.writeHeader('Content-Type', contentType);
    if (!reply.headers?.['Cache-Control']) x.res.writeHeader('Cache-Control', 'no-store');
    for (const [k, v] of Object.entries(reply.headers ?? {})) x.res.writeHeader(k, v);
  }

  /**
   * A body read chunk by chunk and written with backpressure: the next chunk is read only once
   * the socket took the last one, so a slow reader holds one chunk of memory, not the file.
   */
  async function stream(x: Exchange, reply: Reply, body: NonNullable<Reply['stream']>): Promise<void> {
    const { res } = x;
    if (x.method === 'HEAD') {
      res.cork(() => {
        head(x, reply, body.contentType);
        headOnly(x, body.size, closing);
      });
      body.close();
      return;
    }
    const aborted = new Promise<'aborted'>((resolve) => {
      x.onAbort = () => resolve('aborted');
    });
    let headed = false;
    try {
      if (body.size === 0) {
        res.cork(() => {
          head(x, reply, body.contentType);
          res.end(undefined, closing);
        });
        return;
      }
      // Without a size (a body made as it is sent) it goes out chunked: each chunk written whole
      // (the transport keeps what the socket did not take), the next read once the socket drained.
      const { size } = body;
      for await (const chunk of body.chunks) {
        if (x.aborted) return;
        let start = 0;
        let written: [boolean, boolean] = [false, false];
        res.cork(() => {
          if (!headed) head(x, reply, body.contentType);
          headed = true;
          start = res.getWriteOffset();
          written = size === undefined ? [res.write(chunk), false] : res.tryEnd(chunk, size);
        });
        const [ok, finished] = written;
        if (finished) return;
        if (ok) continue;
        // The socket is full: wait until it drains, sending the rest of this chunk as it does.
        const drained = new Promise<'drained'>((resolve) => {
          res.onWritable((offset) => {
            const [again, end] =
              size === undefined ? [true, false] : res.tryEnd(chunk.subarray(offset - start), size);
            // The transport runs no microtask checkpoint after this callback: a promise resolved
            // here would wait for some other event to run its continuation (a download stalled
            // for good when none came). A macrotask runs them.
            if (again || end) setImmediate(resolve, 'drained');
            return again;
          });
        });
        if ((await Promise.race([drained, aborted])) === 'aborted') return;
      }
      if (size === undefined && !x.aborted)
        res.cork(() => {
          if (!headed) head(x, reply, body.contentType);
          res.end(undefined, closing);
        });
    } catch (err) {
      // The file could not be read to its end: the client must not take the cut body for a whole one.
      if (!x.aborted) res.cork(() => res.close());
      throw err;
    } finally {
      body.close();
    }
  }

  app.any('/*', (res, r) => {
    const { req, front } = copyRequest(res, r, from);
    const x: Exchange = {
      res,
      method: req.method,
      gzip: acceptsGzip(req.headers['accept-encoding']),
      aborted: false,
      answered: false,
    };
    inFlight++;
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        settle();
      }
    };
    res.onAborted(() => {
      x.aborted = true;
      x.onAbort?.();
      done();
    });

    /** Answers the request with an error of the transport's own, without reading its body. */
    const refuse = (refusal: FramingRefusal, close: boolean) => {
      const withBody = { ...req, body: Buffer.alloc(0) };
      const field = refusal.status === 413 ? 'body' : refusal.status === 501 ? 'method' : 'headers';
      write(
        x,
        api.refuse(
          withBody,
          new ApiError('INVALID_REQUEST', refusal.message, { status: refusal.status, field }),
        ),
        close,
      );
      api.countLater(withBody);
      done();
    };
    if (front?.refusal) {
      refuse(front.refusal, true);
      return;
    }
    const framing = secret ? null : directFraming(req.headers);
    if (framing) {
      refuse(framing, true);
      return;
    }
    const limit = api.bodyLimit(req.method, req.path);
    // Closing at once would reset the connection under a client still sending, and the client
    // would never read the 413; so the rest of the body is drained (natively, discarded) unless
    // it is announced as very large.
    const tooLarge = (received: string, close: boolean) =>
      refuse({ status: 413, message: tooLargeMessage(limit, received) }, close);
    const declared =
      typeof req.headers['content-length'] === 'string' ? Number(req.headers['content-length']) : 0;
    if (declared > limit) {
      tooLarge(`${declared} (Content-Length)`, declared > DRAIN_MAX_BYTES);
      return;
    }

    // A body of a declared length is copied once, chunk by chunk, into a buffer of that length;
    // a chunked one is gathered, then joined.
    const whole = declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (x.answered || x.aborted) return;
      const at = size;
      size += chunk.byteLength;
      if (size > limit) {
        tooLarge(`more than ${limit} (${size} so far)`, false);
        return;
      }
      if (whole && size <= whole.length) whole.set(new Uint8Array(chunk), at);
      else if (chunk.byteLength > 0) chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      let body: Buffer;
      if (whole && size === whole.length) body = whole;
      else if (whole) body = Buffer.concat([whole.subarray(0, Math.min(size, whole.length)), ...chunks]);
      else body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      api
        .handle({ ...req, body })
        .then((reply) => write(x, reply))
        .catch(() => {}) // a failed stream has already been cut off; nothing more can be said
        .finally(() => {
          done();
          if (size >= LARGE_BODY_BYTES) void collect({ type: 'major', execution: 'async' });
        });
    });
  });

  const stop = (socket: us_listen_socket, graceMs: number): Promise<void> => {
    if (!closing) {
      closing = true;
      uWS.us_listen_socket_close(socket);
      feed?.stop();
    }
    if (inFlight === 0) return Promise.resolve();
    return new Promise<void>((done) => {
      const timer = setTimeout(done, graceMs);
      drained = () => {
        clearTimeout(timer);
        done();
      };
    });
  };

  if (!secret) {
    return new Promise((resolve, reject) => {
      app.listen(opts.host, opts.port, (socket: us_listen_socket | false) => {
        if (!socket) {
          reject(new Error(`cannot listen on ${opts.host}:${opts.port} (in use or not permitted)`));
          return;
        }
        resolve({
          port: uWS.us_socket_local_port(socket),
          inFlight: () => inFlight,
          close: (graceMs = 10_000) => stop(socket, graceMs),
        });
      });
    });
  }

  // The transport listens on a Unix socket in a directory only this user can enter; the check
  // listens on the port.
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-http-'));
  const path = join(dir, 'http.sock');
  return new Promise<us_listen_socket>((resolve, reject) => {
    app.listen_unix((socket) => {
      if (socket) resolve(socket);
      else reject(new Error(`cannot listen on ${path}`));
    }, path);
  }).then(async (socket) => {
    let front: Front;
    try {
      front = await listenFront({
        host: opts.host,
        port: opts.port,
        upstream: path,
        secret,
        refuseAbove(head) {
          // Only a length the route itself refuses, and too large to drain, is refused here; the
          // transport answers the rest after draining (a client still sending then reads its 413).
          if (head.body.kind !== 'length' || head.body.length <= DRAIN_MAX_BYTES) return null;
          const limit = api.bodyLimit(head.method.toUpperCase(), head.target.split('?')[0]!);
          if (head.body.length <= limit) return null;
          return { status: 413, message: tooLargeMessage(limit, `${head.body.length} (Content-Length)`) };
        },
      });
    } catch (err) {
      uWS.us_listen_socket_close(socket);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`cannot listen on ${opts.host}:${opts.port} (${(err as Error).message})`);
    }
    return {
      port: front.port,
      inFlight: () => inFlight,
      async close(graceMs = 10_000) {
        await Promise.all([front.close(graceMs), stop(socket, graceMs)]);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}

/**
 * A body this large (a font, an image) is collected as soon as its request is answered: V8
 * collects when its heap fills, which such a request barely touches, and would otherwise keep
 * up to 64 MB of answered bodies (its external-memory threshold) resident between collections.
 * The body has usually outlived a young-generation collection by then: a full one, run
 * incrementally beside the event loop.
 */
const LARGE_BODY_BYTES = 1024 * 1024;
