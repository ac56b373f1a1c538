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
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { apiRefusal } from '../../domain/errors.ts';
import { collect } from '../../lib/gc.ts';
import { DRAIN_MAX_BYTES, type FramingRefusal, tooLargeMessage } from './framing.ts';
import { type Front, listenFront } from './front.ts';
import { acceptsGzip } from './gzip.ts';
import { type Exchange, replyWriter } from './reply-writer.ts';
import { type LiveFeed, serveLive } from './live.ts';
import { copyRequest, directFraming, type Origin } from './request.ts';

export type { LiveFeed } from './live.ts';
import type { Api } from '../pipeline.ts';

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
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), closes every connection left (idle kept-alive ones too), then resolves. */
  close(graceMs?: number): Promise<void>;
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
  /** Told of a fault while a request was answered; the request's connection is closed, nothing else. */
  onError?: (err: unknown) => void;
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

  const { write } = replyWriter(() => closing);

  /** A fault while answering: told, and the connection closed (the client sees a reset, not a hang). */
  const fault = (x: Exchange | null, res: HttpResponse, err: unknown) => {
    opts.onError?.(err);
    if (x?.aborted) return;
    if (x) x.aborted = true;
    try {
      res.cork(() => res.close());
    } catch {
      // Already closed or answered: nothing is left to do.
    }
  };

  app.any('/*', (res, r) => {
    let x: Exchange | null = null;
    try {
      x = accept(res, r);
    } catch (err) {
      fault(x, res, err);
    }
  });

  /** A request as it comes: checked, its body read within its limit, handed to the API. */
  function accept(res: HttpResponse, r: HttpRequest): Exchange {
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
          apiRefusal('INVALID_REQUEST', refusal.message, { status: refusal.status, field }),
        ),
        close,
      );
      api.countLater(withBody);
      done();
    };
    if (front?.refusal) {
      refuse(front.refusal, true);
      return x;
    }
    const framing = secret ? null : directFraming(req.headers);
    if (framing) {
      refuse(framing, true);
      return x;
    }
    const limit = api.bodyLimit(req.method, req.path);
    // Closing at once would reset the connection under a client still sending, and the client
    // would never read the 413; so the rest of the body is drained (natively, discarded) unless
    // it is announced as very large.
    const tooLarge = (received: string, close: boolean) =>
      refuse({ status: 413, message: tooLargeMessage(limit, received) }, close);
    const sent = req.headers['content-length'];
    const declared = typeof sent === 'string' ? Number(sent) : 0;
    if (declared > limit) {
      tooLarge(`${sent} (Content-Length)`, declared > DRAIN_MAX_BYTES);
      return x;
    }

    // A body of a declared length is copied once, chunk by chunk, into a buffer of that length;
    // a chunked one is gathered, then joined.
    const whole = declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      try {
        take(chunk, isLast);
      } catch (err) {
        fault(x, res, err);
      }
    });
    const take = (chunk: ArrayBuffer, isLast: boolean) => {
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
        .handle({ ...req, body, left: () => x.aborted || closing })
        .then((reply) => write(x, reply))
        // A stream that failed has cut its connection already; anything else is cut here.
        .catch((err: unknown) => fault(x, res, err))
        .finally(() => {
          done();
          if (size >= LARGE_BODY_BYTES) void collect({ type: 'major', execution: 'async' });
        });
    };
    return x;
  }

  // Stops accepting, lets the requests in flight finish (each answer closes its connection), then
  // closes the connections left: idle ones a client keeps alive, and any request still unanswered
  // after `graceMs`. (A kept-alive connection left open holds its client, a test's fetch among
  // them, for its keep-alive time.)
  const stop = (socket: us_listen_socket, graceMs: number): Promise<void> => {
    if (!closing) {
      closing = true;
      uWS.us_listen_socket_close(socket);
      feed?.stop();
    }
    // The binary's App has close() (every socket of the app, listening or connected); its types do not.
    const closeAll = () => (app as TemplatedApp & { close(): void }).close();
    if (inFlight === 0) {
      closeAll();
      return Promise.resolve();
    }
    return new Promise<void>((done) => {
      const timer = setTimeout(() => {
        closeAll();
        done();
      }, graceMs);
      drained = () => {
        clearTimeout(timer);
        closeAll();
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
          return { status: 413, message: tooLargeMessage(limit, `${head.body.declared} (Content-Length)`) };
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
