// One client connection of the framing check (./front.ts) and its connection to the transport:
// request heads read and checked, bodies passed on by their framing, responses followed to
// their end so that requests go on one at a time.
import type net from 'node:net';
import {
  type BodyFraming,
  frontValue,
  ChunkedScanner,
  FRONT_HEADER,
  headEnd,
  isRefusal,
  MAX_HEAD_BYTES,
  type FramingRefusal,
  type RequestHead,
  readRequestHead,
  responseFraming,
  skipEmptyLines,
} from './framing.ts';

const EMPTY = Buffer.alloc(0);
/** Bytes of later (pipelined) requests held while one is answered, before the client is paused. */
const HOLD_MAX = 64 * 1024;
/** A response head from the transport longer than this is a fault. */
const RESPONSE_HEAD_MAX = 64 * 1024;

export interface FrontOptions {
  host: string;
  port: number;
  /** The transport's Unix socket. */
  upstream: string;
  /** Proves to the transport that a request came through the check. */
  secret: string;
  /** Declared bodies above this are refused here with 413, and the connection closed. */
  refuseAbove(head: RequestHead): FramingRefusal | null;
}

interface Waiting {
  method: string;
  /** HTTP/1.0 with keep-alive: the response says `Connection: keep-alive` so the client keeps it. */
  keepAlive10: boolean;
}

export class Link {
  private buf: Buffer = EMPTY;
  private phase: 'head' | 'length' | 'chunked' | 'tunnel' | 'done' = 'head';
  private left = 0;
  private chunks: ChunkedScanner | null = null;
  private waiting: Waiting | null = null;
  private refusal: Buffer | null = null;
  private clientEnded = false;
  private rbuf: Buffer = EMPTY;
  private rphase: 'head' | 'length' | 'chunked' | 'to-close' = 'head';
  private rleft = 0;
  private rchunks: ChunkedScanner | null = null;
  private upstreamFull = false;
  private readonly peer: string;
  closing = false;

  constructor(
    private readonly c: net.Socket,
    private readonly u: net.Socket,
    private readonly opts: FrontOptions,
    gone: () => void,
  ) {
    this.peer = (c.remoteAddress ?? '-').replace(/^::ffff:/, '');
    // Corked while a chunk is handled: a head and its body go out in one write.
    c.on('data', (d: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      u.cork();
      this.pump();
      u.uncork();
    });
    c.on('end', () => {
      this.clientEnded = true;
      // A body cut off can never be completed: the request is aborted. A whole request is
      // answered before the transport hears of the close (a client may half-close and wait).
      if (this.phase === 'length' || this.phase === 'chunked') this.destroy();
      else if (!this.waiting) u.end();
    });
    u.on('data', (d: Buffer) => {
      c.cork();
      this.fromUpstream(d);
      c.uncork();
    });
    u.on('drain', () => {
      this.upstreamFull = false;
      this.flow();
    });
    c.on('drain', () => u.resume());
    u.on('end', () => c.end());
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      c.destroy();
      u.destroy();
      gone();
    };
    c.on('close', close);
    u.on('close', () => {
      // Whatever the transport wrote is flushed before the client's side is closed.
      if (c.writableLength === 0) close();
      else c.end(close);
    });
    c.on('error', close);
    u.on('error', close);
  }

  get idle(): boolean {
    return !this.waiting && this.phase === 'head' && this.buf.length === 0;
  }

  destroy(): void {
    this.c.destroy();
    this.u.destroy();
  }

  private send(bytes: Buffer): void {
    if (!this.u.write(bytes)) {
      this.upstreamFull = true;
      this.flow();
    }
  }

  /** The client is read while the transport takes its bytes and no more than HOLD_MAX is held. */
  private flow(): void {
    const hold = this.upstreamFull || (this.waiting !== null && this.buf.length > HOLD_MAX);
    if (hold) this.c.pause();
    else this.c.resume();
  }

  private pump(): void {
    for (;;) {
      switch (this.phase) {
        case 'done':
          this.buf = EMPTY;
          return;
        case 'tunnel':
          if (this.buf.length) this.send(this.buf);
          this.buf = EMPTY;
          return;
        case 'length': {
          if (this.buf.length === 0) return;
          const n = Math.min(this.left, this.buf.length);
          this.send(this.buf.subarray(0, n));
          this.buf = this.buf.subarray(n);
          this.left -= n;
          if (this.left === 0) this.phase = 'head';
          break;
        }
        case 'chunked': {
          if (this.buf.length === 0) return;
          let end: number;
          try {
            end = this.chunks!.scan(this.buf);
          } catch {
            // The body's framing broke after its head went on: nothing after it can be trusted.
            this.destroy();
            return;
          }
          if (end === -1) {
            this.send(this.buf);
            this.buf = EMPTY;
            return;
          }
          this.send(this.buf.subarray(0, end));
          this.buf = this.buf.subarray(end);
          this.phase = 'head';
          break;
        }
        case 'head':
          if (!this.nextHead()) {
            this.flow();
            return;
          }
      }
    }
  }

  /** Reads and passes on the next request head; false when there is none to go on with yet. */
  private nextHead(): boolean {
    if (this.waiting || this.closing) return false;
    const skip = skipEmptyLines(this.buf);
    if (skip) this.buf = this.buf.subarray(skip);
    if (this.buf.length === 0) return false;
    const end = headEnd(this.buf);
    if (end === -1 || end > MAX_HEAD_BYTES) {
      if (end !== -1 || this.buf.length > MAX_HEAD_BYTES)
        this.refuse({
          status: 431,
          message: `the request line and header fields may take ${MAX_HEAD_BYTES} bytes, got more`,
        });
      return false;
    }
    const text = this.buf.toString('latin1', 0, end);
    const head = readRequestHead(text);
    if (isRefusal(head)) {
      // A refusal of a method the transport does not read still names the path it was sent to.
      this.refuse(head, head.status === 501 ? { method: 'GET', target: requestTarget(text) } : undefined);
      return false;
    }
    const tooLarge = this.opts.refuseAbove(head);
    if (tooLarge) {
      this.refuse(tooLarge, head);
      return false;
    }
    let first = `${head.method} ${head.target} HTTP/1.1\r\n${FRONT_HEADER}: ${frontValue(this.opts.secret, this.peer)}\r\n`;
    if (head.http10) {
      if (!head.hasHost) first += 'Host: localhost\r\n';
      if (!head.keepAlive && !head.closes) first += 'Connection: close\r\n';
    }
    const fields =
      head.kept === undefined ? this.buf.subarray(head.fieldsAt, end + 4) : Buffer.from(head.kept, 'latin1');
    const bytes = Buffer.concat([Buffer.from(first, 'latin1'), fields]);
    this.buf = this.buf.subarray(end + 4);
    this.waiting = { method: head.method.toUpperCase(), keepAlive10: head.keepAlive };
    this.send(bytes);
    this.startBody(head.body);
    return true;
  }

  private startBody(body: BodyFraming): void {
    if (body.kind === 'length') {
      this.phase = 'length';
      this.left = body.length;
    } else if (body.kind === 'chunked') {
      this.phase = 'chunked';
      this.chunks = new ChunkedScanner();
    }
  }

  /** Answers through the transport (in turn, after any response under way) and closes. */
  private refuse(refusal: FramingRefusal, head?: Pick<RequestHead, 'method' | 'target'>): void {
    this.phase = 'done';
    this.buf = EMPTY;
    const method = head?.method ?? 'GET';
    const target = head?.target ?? '/';
    const bytes = Buffer.from(
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${FRONT_HEADER}: ${frontValue(this.opts.secret, this.peer, refusal)}\r\nConnection: close\r\n\r\n`,
      'latin1',
    );
    if (this.waiting) this.refusal = bytes;
    else {
      this.waiting = { method: method.toUpperCase(), keepAlive10: false };
      this.send(bytes);
    }
  }

  /** A response (or the end of one) from the transport: followed to its end, passed on. */
  private fromUpstream(d: Buffer): void {
    let data = d;
    while (data.length > 0) {
      if (!this.waiting || this.phase === 'tunnel') {
        this.toClient(data);
        return;
      }
      switch (this.rphase) {
        case 'head': {
          const merged = this.rbuf.length ? Buffer.concat([this.rbuf, data]) : data;
          const end = headEnd(merged);
          if (end === -1) {
            if (merged.length > RESPONSE_HEAD_MAX) this.destroy();
            this.rbuf = merged;
            return;
          }
          this.rbuf = EMPTY;
          const text = merged.toString('latin1', 0, end);
          const framing = responseFraming(text, this.waiting.method);
          let head = merged.subarray(0, end + 4);
          if (this.waiting.keepAlive10 && framing !== 'interim' && framing !== 'switch') {
            const line = text.indexOf('\r\n') + 2;
            head = Buffer.concat([
              head.subarray(0, line),
              Buffer.from('Connection: keep-alive\r\n'),
              head.subarray(line),
            ]);
          }
          this.toClient(head);
          data = merged.subarray(end + 4);
          if (framing === 'interim') break;
          if (framing === 'switch') {
            this.phase = 'tunnel';
            this.waiting = null;
            this.pump();
            break;
          }
          if (framing === 'to-close') this.rphase = 'to-close';
          else if (framing.kind === 'none') this.responded();
          else if (framing.kind === 'length') {
            this.rphase = 'length';
            this.rleft = framing.length;
          } else {
            this.rphase = 'chunked';
            this.rchunks = new ChunkedScanner();
          }
          break;
        }
        case 'length': {
          const n = Math.min(this.rleft, data.length);
          this.toClient(data.subarray(0, n));
          data = data.subarray(n);
          this.rleft -= n;
          if (this.rleft === 0) this.responded();
          break;
        }
        case 'chunked': {
          let end: number;
          try {
            end = this.rchunks!.scan(data);
          } catch {
            this.destroy();
            return;
          }
          if (end === -1) {
            this.toClient(data);
            return;
          }
          this.toClient(data.subarray(0, end));
          data = data.subarray(end);
          this.responded();
          break;
        }
        case 'to-close':
          this.toClient(data);
          return;
      }
    }
  }

  private toClient(bytes: Buffer): void {
    if (bytes.length && !this.c.write(bytes)) this.u.pause();
  }

  /** The response to the request under way is complete: the next may go on. */
  private responded(): void {
    this.rphase = 'head';
    this.waiting = null;
    if (this.refusal) {
      const bytes = this.refusal;
      this.refusal = null;
      this.waiting = { method: 'GET', keepAlive10: false };
      this.send(bytes);
      return;
    }
    if (this.closing) {
      // The server is stopping: this answer is the connection's last (sent before it closes).
      this.c.destroySoon();
      this.u.end();
      return;
    }
    if (this.clientEnded && this.buf.length === 0 && this.phase === 'head') {
      this.u.end();
      return;
    }
    this.pump();
  }
}

/** The path of a request line whose target has not been checked: `/` unless it is a plain path. */
function requestTarget(head: string): string {
  const target = head.split('\r\n', 1)[0]!.split(' ')[1] ?? '/';
  return /^\/[\x21-\x7e]*$/.test(target) ? target : '/';
}
