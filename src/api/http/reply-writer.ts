// Replies written on the transport: a status, headers and a body in one corked write, JSON
// gzip-coded for clients that take it, HEAD answered with the length alone, and bodies streamed
// with backpressure (chunked when their length is known only at their end).
import type { HttpResponse } from 'uWebSockets.js';
import { JSON_TYPE, type Reply } from '../types.ts';
import { GZIP_MIN_BYTES, gzipped } from './gzip.ts';
import { STATUS_TEXT } from './request.ts';

/** One request's answer as it is written: its response, and what has happened to it. */
export interface Exchange {
  res: HttpResponse;
  method: string;
  /** The client takes a gzip-coded body (Accept-Encoding). */
  gzip: boolean;
  aborted: boolean;
  answered: boolean;
  /** Called once when the client goes away (a stream waiting on the socket stops). */
  onAbort?: () => void;
}

/** `closing`: the server is stopping, so each answer closes its connection. */
export function replyWriter(closing: () => boolean) {
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
      if (x.method === 'HEAD') headOnly(x, Buffer.byteLength(body), closeConnection || closing());
      else x.res.end(body, closeConnection || closing());
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
        headOnly(x, body.size, closing());
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
          res.end(undefined, closing());
        });
        return;
      }
      // Without a size (a body made as it is sent) it goes out chunked, in pieces that fit the
      // transport's cork buffer (see CHUNK_PIECE); the next piece waits while the socket is full.
      const { size } = body;
      for await (const chunk of body.chunks) {
        const pieces = size === undefined ? piecesOf(chunk, headed) : [chunk];
        for (const piece of pieces) {
          if (x.aborted) return;
          let start = 0;
          let written: [boolean, boolean] = [false, false];
          res.cork(() => {
            if (!headed) head(x, reply, body.contentType);
            headed = true;
            start = res.getWriteOffset();
            written = size === undefined ? [res.write(piece), false] : res.tryEnd(piece, size);
          });
          const [ok, finished] = written;
          if (finished) return;
          if (ok) continue;
          // The socket is full: wait until it drains, sending the rest of a sized piece as it does
          // (a chunked piece is kept whole by the transport, which sends it once this returns true).
          const writable = new Promise<'drained'>((resolve) => {
            res.onWritable((offset) => {
              const [again, end] =
                size === undefined ? [true, false] : res.tryEnd(piece.subarray(offset - start), size);
              // The transport runs no microtask checkpoint after this callback: a promise resolved
              // here would wait for some other event to run its continuation (a download stalled
              // for good when none came). A macrotask runs them.
              if (again || end) setImmediate(resolve, 'drained');
              return again;
            });
          });
          if ((await Promise.race([writable, aborted])) === 'aborted') return;
        }
      }
      if (size === undefined && !x.aborted)
        res.cork(() => {
          if (!headed) head(x, reply, body.contentType);
          res.end(undefined, closing());
        });
    } catch (err) {
      // The file could not be read to its end: the client must not take the cut body for a whole one.
      if (!x.aborted) res.cork(() => res.close());
      throw err;
    } finally {
      body.close();
    }
  }

  return { write };
}

/**
 * The largest piece of a chunked body written in one corked call. uWebSockets.js 20.30 loses a
 * write larger than what is left of its 16 KiB cork buffer when the socket cannot take the buffer
 * at that moment (AsyncSocket::uncork returns before keeping the write): a merged PDF came out
 * cut short in its cross-reference table. A piece that fits, with its chunk header (at most 12
 * bytes) and, in the first, the response head, is always kept until the socket takes it.
 */
const CHUNK_PIECE = 16 * 1024 - 64;
/** The first piece shares the cork buffer with the response head. */
const FIRST_PIECE = 4 * 1024;

/** A chunk as the pieces it is written in (subarrays, no copies). */
function piecesOf(chunk: Uint8Array, headed: boolean): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  let limit = headed ? CHUNK_PIECE : FIRST_PIECE;
  while (at < chunk.byteLength) {
    pieces.push(chunk.subarray(at, at + limit));
    at += limit;
    limit = CHUNK_PIECE;
  }
  return pieces;
}
