// The client's one way to the API: Node's fetch with the key, a time limit, the service's errors
// turned into ScriptoriumError, and retries that are safe. A request is retried only where a
// second try cannot do the work twice: reads, cancels and POSTs that carry an Idempotency-Key
// after a connection failure or a 5xx; any request after a 429 or a 503 SERVICE_UNAVAILABLE
// (the service did nothing). The wait comes from the service: the RateLimit header's reset, else
// Retry-After, else a short back-off.
import { type LimitReason, ScriptoriumError, type ScriptoriumErrorCode } from './errors.ts';

export interface ClientOptions {
  /** `hw_live_…` or `hw_test_…`; default the SCRIPTORIUM_API_KEY environment variable. */
  apiKey?: string;
  /** The server (`https://host`) or its API base (`https://host/api/v1`); default SCRIPTORIUM_URL or http://127.0.0.1:8080. */
  baseUrl?: string;
  /** Retries of one request after a failure that is safe to retry (default 2). */
  maxRetries?: number;
  /** A retry that would wait longer than this is not made; the error is thrown (default 65 s). */
  maxRetryWaitMs?: number;
  /** Time allowed for one request until its answer (or, for a download, its headers) arrives (default 60 s). */
  timeoutMs?: number;
  /** Told of every retry: why and how long it waits. */
  onRetry?: (event: RetryEvent) => void;
  /** Another fetch (a proxy agent, a test double of your own). */
  fetch?: typeof fetch;
}

export interface RetryEvent {
  method: string;
  path: string;
  /** The try that failed, from 1. */
  attempt: number;
  /** The HTTP status, 0 when no response came. */
  status: number;
  code: ScriptoriumErrorCode;
  /** The service's message of the refusal. */
  message: string;
  /** Which limit refused, after a 429. */
  reason?: LimitReason | undefined;
  waitMs: number;
  /** Tries the request may take in all (the first and its retries). */
  tries: number;
}

/** What the `RateLimit` header last said of the key's own limit. */
export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Uint8Array;
  contentType?: string;
  idempotencyKey?: string;
  signal?: AbortSignal | undefined;
  /** `safe`: may be retried after any transient failure; `refusals`: only after a 429 or 503 (the service did nothing). */
  retry: 'safe' | 'refusals';
  /** Keep the body unread (a download): the time limit stops once the headers arrive. */
  stream?: boolean;
}

const API_PREFIX = '/api/v1';
export const CLIENT_VERSION = '1.0.0';

/** `"per-key";r=3;t=42, "renders-day";r=0;t=3600` → the policies it names. */
export function parseRateLimit(value: string | null): Map<string, RateLimitState> {
  const out = new Map<string, RateLimitState>();
  for (const m of (value ?? '').matchAll(/"([^"]+)";r=(\d+);t=(\d+)/g))
    out.set(m[1]!, { remaining: Number(m[2]), resetSeconds: Number(m[3]) });
  return out;
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function aborted(signal: AbortSignal): ScriptoriumError {
  return new ScriptoriumError('ABORTED', 'the request was aborted by its signal', { cause: signal.reason });
}

export class Http {
  readonly base: URL;
  private readonly key: string;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  /** How long a request may take before it is given up (TIMEOUT). */
  readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly onRetry: ((e: RetryEvent) => void) | undefined;
  /** The key's own limit as the last answer told it. */
  rateLimit: RateLimitState | null = null;

  constructor(opts: ClientOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const key = opts.apiKey ?? env.SCRIPTORIUM_API_KEY;
    if (!key) throw new TypeError('an API key is needed: pass apiKey or set SCRIPTORIUM_API_KEY');
    this.key = key;
    const base = new URL(opts.baseUrl ?? env.SCRIPTORIUM_URL ?? 'http://127.0.0.1:8080');
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`baseUrl must be an http or https URL, got ${base.protocol}`);
    const path = base.pathname.replace(/\/+$/, '');
    base.pathname = path.endsWith(API_PREFIX) ? path : `${path}${API_PREFIX}`;
    this.base = base;
    this.maxRetries = opts.maxRetries ?? 2;
    this.maxRetryWaitMs = opts.maxRetryWaitMs ?? 65_000;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.onRetry = opts.onRetry;
  }

  /** A path under the API base (`/generations/gen_…`), or a URL the API gave (an absolute downloadUrl). */
  url(path: string, query?: RequestOptions['query']): URL {
    const url = /^https?:\/\//.test(path)
      ? new URL(path)
      : new URL(path.startsWith(`${API_PREFIX}/`) ? path : `${this.base.pathname}${path}`, this.base.origin);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Sends the request, retrying where that is safe; answers a 2xx response or throws. */
  async request(method: string, path: string, opts: RequestOptions): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, path, opts);
      } catch (err) {
        if (!(err instanceof ScriptoriumError)) throw err;
        const waitMs = this.retryWait(err, opts, attempt);
        if (waitMs === null) throw err;
        this.onRetry?.({
          method,
          path,
          attempt,
          status: err.status,
          code: err.code,
          message: err.message,
          reason: err.reason,
          waitMs,
          tries: this.maxRetries + 1,
        });
        await sleep(waitMs, opts.signal);
      }
    }
  }

  /** How long to wait before trying again, or null when this failure is not retried. */
  private retryWait(err: ScriptoriumError, opts: RequestOptions, attempt: number): number | null {
    if (attempt > this.maxRetries) return null;
    const refused = err.status === 429 || err.code === 'SERVICE_UNAVAILABLE';
    const transient =
      err.code === 'CONNECTION_FAILED' ||
      err.code === 'IDEMPOTENCY_KEY_IN_USE' ||
      err.status === 500 ||
      err.status === 502 ||
      err.status === 503 ||
      err.status === 504;
    if (!refused && !(opts.retry === 'safe' && transient)) return null;
    if (err.code === 'RENDER_DISABLED' || err.code === 'OUTPUT_DAMAGED') return null;
    const backoff = Math.min(8000, 500 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);
    const wait = err.retryAfter !== undefined ? err.retryAfter * 1000 : backoff;
    return wait > this.maxRetryWaitMs ? null : wait;
  }

  private async once(method: string, path: string, opts: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.key}`,
      'user-agent': `scriptorium-client/${CLIENT_VERSION}`,
    };
    let body: RequestInit['body'];
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body) {
      headers['content-type'] = opts.contentType ?? 'application/octet-stream';
      body = opts.body;
    }
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    const timer = new AbortController();
    const timeout = setTimeout(
      () => timer.abort(new ScriptoriumError('TIMEOUT', `no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const signal = opts.signal ? AbortSignal.any([opts.signal, timer.signal]) : timer.signal;
    let res: Response;
    try {
      res = await this.fetch(this.url(path, opts.query), { method, headers, body, signal });
      this.noteRateLimit(res);
      if (res.ok) {
        if (opts.stream) return res;
        // Read the body under the time limit too, then hand out a response that holds it.
        const bytes = new Uint8Array(await res.arrayBuffer());
        return new Response(bytes, { status: res.status, headers: res.headers });
      }
      throw await errorOf(res);
    } catch (err) {
      if (err instanceof ScriptoriumError) throw err;
      if (opts.signal?.aborted) throw aborted(opts.signal);
      if (timer.signal.aborted) throw timer.signal.reason as ScriptoriumError;
      throw new ScriptoriumError(
        'CONNECTION_FAILED',
        `${method} ${path}: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ''}`,
        { cause: err },
      );
    } finally {
      clearTimeout(timeout);
    }
  }

  private noteRateLimit(res: Response): void {
    const own = parseRateLimit(res.headers.get('ratelimit')).get('per-key');
    if (own) this.rateLimit = own;
  }
}

/** The service's error body as a ScriptoriumError; a body that is not one says so. */
async function errorOf(res: Response): Promise<ScriptoriumError> {
  const requestId = res.headers.get('x-request-id') ?? undefined;
  const text = await res.text().catch(() => '');
  let e: { code?: string; message?: string; field?: string; reason?: LimitReason } | undefined;
  try {
    e = (JSON.parse(text) as { error?: typeof e }).error;
  } catch {}
  if (!e?.code)
    return new ScriptoriumError(
      'UNEXPECTED_RESPONSE',
      `HTTP ${res.status} without an API error body: ${text.slice(0, 200)}`,
      { status: res.status, requestId },
    );
  return new ScriptoriumError(e.code as ScriptoriumErrorCode, e.message ?? '', {
    status: res.status,
    field: e.field,
    reason: e.reason,
    requestId,
    retryAfter: retryAfterOf(res),
  });
}

/**
 * Seconds until the service admits again: for a 429, the reset of the exhausted policy in the
 * RateLimit header (the service's Retry-After is always 60, as the spec requires, while the
 * header gives the true reset); otherwise Retry-After.
 */
function retryAfterOf(res: Response): number | undefined {
  if (res.status === 429) {
    const spent = [...parseRateLimit(res.headers.get('ratelimit')).values()].filter((p) => p.remaining === 0);
    if (spent.length) return Math.max(...spent.map((p) => p.resetSeconds));
  }
  const after = res.headers.get('retry-after');
  return after !== null && /^\d+$/.test(after) ? Number(after) : undefined;
}
