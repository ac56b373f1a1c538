// Scriptorium's typed client for integrators: every public endpoint, with the types of the
// service's OpenAPI document (./schema.ts is generated from it; a test fails if they drift).
// Node 20's fetch and nothing else at run time.
//
//   const client = new Scriptorium({ apiKey: process.env.SCRIPTORIUM_API_KEY, baseUrl });
//   const job = await client.generate({ templateId, text }, { to: 'letter.pdf' });
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ScriptoriumError } from './errors.ts';
import { type ClientOptions, Http, sleep } from './http.ts';
import type { components, operations } from './schema.ts';

export { ScriptoriumError } from './errors.ts';
export type { ApiErrorCode, ClientErrorCode, LimitReason, ScriptoriumErrorCode } from './errors.ts';
export type { ClientOptions, RateLimitState, RetryEvent } from './http.ts';
export { SIGNATURE_HEADER, signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from './webhooks.ts';
export type { WebhookEvent, WebhookTestEvent } from './webhooks.ts';
export type { components, operations, paths } from './schema.ts';

type Schemas = components['schemas'];
export type Generation = Schemas['Generation'];
export type GenerationStatus = Generation['status'];
export type GenerationRequest = Schemas['GenerationRequest'];
export type PreviewRequest = Schemas['PreviewRequest'];
export type RenderRequest = Schemas['RenderRequest'];
export type Template = Schemas['Template'];
export type TemplateSummary = Schemas['TemplateSummary'];
export type Font = Schemas['Font'];
export type Usage = Schemas['Usage'];
export type Asset = Schemas['Asset'];
export type Preview = Schemas['Preview'];
export type Metadata = Schemas['Metadata'];
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

type Query<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
export type ListGenerationsQuery = Query<'listGenerations'>;
export type UsageQuery = Query<'getUsage'>;
export type ListQuery = Query<'listTemplates'>;

const FINAL: readonly GenerationStatus[] = ['completed', 'failed', 'cancelled'];

/** Where a wait or a generation stands, for a progress line. */
export type Progress =
  | { phase: 'queued' | 'processing'; job: Generation; waitedMs: number }
  | { phase: 'waiting'; job: Generation | null; waitMs: number; reason: 'rate-limit' | 'service-unavailable' }
  | { phase: 'downloading'; job: Generation; bytes: number; total: number }
  | { phase: 'done'; job: Generation; bytes: number };

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes); the job goes on. */
  timeoutMs?: number;
  /** First pause between polls (default 500 ms); it grows by half each poll up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause between polls (default 10 s, the spec's polling pace). */
  maxIntervalMs?: number;
  onProgress?: (p: Progress) => void;
}

export interface CreateOptions {
  /** Makes retries of this call safe; one is made for every call when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface Download {
  /** The PDF's bytes as they arrive. */
  body: ReadableStream<Uint8Array>;
  /** Content-Length. */
  size: number;
  contentType: string;
}

export interface GenerateOptions extends WaitOptions {
  /** A file path (written whole or not at all) or a stream to write the PDF to; without one, the bytes are returned. */
  to?: string | NodeJS.WritableStream | WritableStream<Uint8Array>;
  idempotencyKey?: string;
}

const newKey = () => globalThis.crypto.randomUUID();

const json = async <T>(res: Response): Promise<T> => {
  try {
    return (await res.json()) as T;
  } catch (err) {
    throw new ScriptoriumError('UNEXPECTED_RESPONSE', `HTTP ${res.status} with a body that is not JSON`, {
      status: res.status,
      requestId: res.headers.get('x-request-id') ?? undefined,
      cause: err,
    });
  }
};

export class Scriptorium {
  private readonly http: Http;

  constructor(opts: ClientOptions = {}) {
    this.http = new Http(opts);
  }

  /** The key's own request limit as the last answer told it (`remaining`, `resetSeconds`). */
  get rateLimit() {
    return this.http.rateLimit;
  }

  private async get<T>(
    path: string,
    query?: Record<string, string | number | undefined>,
    signal?: AbortSignal,
  ) {
    return json<T>(await this.http.request('GET', path, { query, signal, retry: 'safe' }));
  }

  private async post<T>(path: string, body: unknown, opts: CreateOptions) {
    const res = await this.http.request('POST', path, {
      json: body,
      idempotencyKey: opts.idempotencyKey ?? newKey(),
      signal: opts.signal,
      retry: 'safe',
    });
    return json<T>(res);
  }

  /** Every item of a list, page after page. */
  private async *all<T>(path: string, query: Record<string, string | number | undefined>) {
    let cursor: string | undefined;
    do {
      const page = await this.get<Page<T>>(path, { ...query, cursor });
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  readonly templates = {
    list: (q: ListQuery = {}) => this.get<Page<TemplateSummary>>('/templates', q),
    all: () => this.all<TemplateSummary>('/templates', {}),
    get: (id: string) => this.get<Template>(`/templates/${encodeURIComponent(id)}`),
  };

  readonly fonts = {
    list: (q: ListQuery = {}) => this.get<Page<Font>>('/fonts', q),
    all: () => this.all<Font>('/fonts', {}),
  };

  readonly usage = {
    /** Counts and sheets over `from` (inclusive) to `to` (exclusive), UTC dates; default this month. */
    get: (q: UsageQuery = {}) => this.get<Usage>('/usage', q),
  };

  readonly assets = {
    /** Uploads a PNG or JPEG; its type is read from its first bytes when not given. */
    upload: async (
      image: Uint8Array | ArrayBuffer | Blob,
      opts: CreateOptions & { contentType?: 'image/png' | 'image/jpeg' } = {},
    ): Promise<Asset> => {
      const bytes =
        image instanceof Uint8Array
          ? image
          : new Uint8Array(image instanceof Blob ? await image.arrayBuffer() : image);
      const type = opts.contentType ?? (bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : 'image/png');
      const res = await this.http.request('POST', '/assets', {
        body: bytes,
        contentType: type,
        idempotencyKey: opts.idempotencyKey ?? newKey(),
        signal: opts.signal,
        retry: 'safe',
      });
      return json<Asset>(res);
    },
  };

  readonly generations = {
    /** Queues a PDF job; safe to retry (an Idempotency-Key goes with every call). */
    create: (body: GenerationRequest, opts: CreateOptions = {}) =>
      this.post<Generation>('/generations', body, opts),
    get: (id: string, signal?: AbortSignal) =>
      this.get<Generation>(`/generations/${encodeURIComponent(id)}`, undefined, signal),
    list: (q: ListGenerationsQuery = {}) => this.get<Page<Generation>>('/generations', q),
    all: (q: Omit<ListGenerationsQuery, 'cursor'> = {}) => this.all<Generation>('/generations', q),
    cancel: async (id: string) =>
      json<Generation>(
        await this.http.request('POST', `/generations/${encodeURIComponent(id)}/cancel`, { retry: 'safe' }),
      ),
    /** The PDF of a completed job, streamed. */
    download: async (idOrJob: string | Generation, signal?: AbortSignal): Promise<Download> => {
      const path =
        typeof idOrJob === 'string'
          ? `/generations/${encodeURIComponent(idOrJob)}/download`
          : (idOrJob.downloadUrl ?? `/generations/${encodeURIComponent(idOrJob.id)}/download`);
      const res = await this.http.request('GET', path, { signal, retry: 'safe', stream: true });
      if (!res.body)
        throw new ScriptoriumError('UNEXPECTED_RESPONSE', 'the download has no body', { status: res.status });
      return {
        body: res.body,
        size: Number(res.headers.get('content-length') ?? Number.NaN),
        contentType: res.headers.get('content-type') ?? 'application/pdf',
      };
    },
    waitForCompletion: (id: string, opts: WaitOptions = {}) => this.waitForCompletion(id, opts),
  };

  readonly previews = {
    /** Queues a watermarked preview (or answers the unchanged earlier one). */
    create: (body: PreviewRequest, opts: CreateOptions = {}) =>
      this.post<Generation>('/previews', body, opts),
    /** The images of a completed preview. */
    get: (id: string) => this.get<Preview>(`/generations/${encodeURIComponent(id)}/preview`),
  };

  readonly renders = {
    /** One image, synchronously: an SVG (or a pen plotter's strokes, also SVG) as text, a PNG as bytes. */
    create: (async (body: RenderRequest, opts: { signal?: AbortSignal } = {}) => {
      // A render is retried only after a refusal (429, 503): a second try could charge again.
      const res = await this.http.request('POST', '/renders', {
        json: body,
        signal: opts.signal,
        retry: 'refusals',
      });
      return body.format === 'png' ? new Uint8Array(await res.arrayBuffer()) : res.text();
    }) as {
      (body: RenderRequest & { format: 'svg' | 'strokes' }, opts?: { signal?: AbortSignal }): Promise<string>;
      (body: RenderRequest & { format: 'png' }, opts?: { signal?: AbortSignal }): Promise<Uint8Array>;
    },
  };

  /**
   * Polls a job until it is completed, failed or cancelled, and answers it as it ended. The pace
   * is polite: 500 ms growing to 10 s, never spending the key's last request of a window (it
   * waits for the RateLimit reset instead), and after a 429 or 503 it waits as long as the
   * service says. Throws TIMEOUT after `timeoutMs` (the job goes on) or ABORTED on the signal.
   */
  async waitForCompletion(id: string, opts: WaitOptions = {}): Promise<Generation> {
    const started = Date.now();
    const deadline = started + (opts.timeoutMs ?? 600_000);
    const maxInterval = opts.maxIntervalMs ?? 10_000;
    let interval = opts.intervalMs ?? 500;
    let job: Generation | null = null;
    for (;;) {
      if (opts.signal?.aborted) throw new ScriptoriumError('ABORTED', 'the wait was aborted by its signal');
      let pause: number;
      try {
        job = await this.generations.get(id, opts.signal);
        if (FINAL.includes(job.status)) return job;
        opts.onProgress?.({
          phase: job.status as 'queued' | 'processing',
          job,
          waitedMs: Date.now() - started,
        });
        pause = interval * (0.9 + Math.random() * 0.2);
        interval = Math.min(maxInterval, interval * 1.5);
        // Keep the key's last request of the window for what comes next (the download).
        const limit = this.http.rateLimit;
        if (limit && limit.remaining <= 1) pause = Math.max(pause, limit.resetSeconds * 1000 + 100);
      } catch (err) {
        // The client's own retries gave up on a refusal: the wait goes on after the service's pause.
        if (!(err instanceof ScriptoriumError) || err.retryAfter === undefined) throw err;
        if (err.status !== 429 && err.code !== 'SERVICE_UNAVAILABLE') throw err;
        pause = err.retryAfter * 1000;
        opts.onProgress?.({
          phase: 'waiting',
          job,
          waitMs: pause,
          reason: err.status === 429 ? 'rate-limit' : 'service-unavailable',
        });
      }
      const left = deadline - Date.now();
      if (left <= 0 || pause > left)
        throw new ScriptoriumError(
          'TIMEOUT',
          `${id} is still ${job?.status ?? 'unknown'} after ${Math.round((Date.now() - started) / 1000)} s; it goes on: wait again or cancel it`,
          { job: job ?? undefined },
        );
      await sleep(pause, opts.signal);
    }
  }

  /**
   * Submits a PDF job, waits for it and downloads the PDF: to a file (written to `<path>.part`
   * and renamed once whole, so a failure leaves no file), to a stream, or as bytes. A job that
   * ends failed or cancelled throws with its error code and the job.
   */
  async generate(
    body: GenerationRequest,
    opts: GenerateOptions & { to: string | NodeJS.WritableStream | WritableStream<Uint8Array> },
  ): Promise<{ job: Generation; bytes: number }>;
  async generate(
    body: GenerationRequest,
    opts?: GenerateOptions,
  ): Promise<{ job: Generation; bytes: number; pdf: Uint8Array }>;
  async generate(
    body: GenerationRequest,
    opts: GenerateOptions = {},
  ): Promise<{ job: Generation; bytes: number; pdf?: Uint8Array }> {
    const created = await this.generations.create(body, {
      idempotencyKey: opts.idempotencyKey ?? newKey(),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const job = await this.waitForCompletion(created.id, opts);
    if (job.status !== 'completed') {
      const code =
        job.status === 'cancelled' ? 'GENERATION_CANCELLED' : (job.error?.code ?? 'GENERATION_FAILED');
      throw new ScriptoriumError(
        code,
        `${job.id} ${job.status}${job.error ? `: ${job.error.message}` : ''}`,
        { job },
      );
    }
    const download = await this.generations.download(job, opts.signal);
    let bytes = 0;
    const chunks: Uint8Array[] = [];
    const counted = Readable.fromWeb(
      download.body as import('node:stream/web').ReadableStream<Uint8Array>,
    ).map((chunk: Uint8Array) => {
      bytes += chunk.byteLength;
      opts.onProgress?.({ phase: 'downloading', job, bytes, total: download.size });
      if (opts.to === undefined) chunks.push(chunk);
      return chunk;
    });
    const to = opts.to;
    const signal = opts.signal ? { signal: opts.signal } : {};
    if (typeof to === 'string') {
      const part = `${to}.part`;
      try {
        await pipeline(counted, createWriteStream(part), signal);
        checkLength(job, bytes, download.size);
        await rename(part, to);
      } catch (err) {
        await rm(part, { force: true });
        throw wrapStream(err, job);
      }
    } else if (to) {
      const sink = to instanceof WritableStream ? Writable.fromWeb(to) : to;
      await pipeline(counted, sink, signal).catch((err) => {
        throw wrapStream(err, job);
      });
      checkLength(job, bytes, download.size);
    } else {
      await pipeline(counted, new Writable({ write: (_c, _e, cb) => cb() }), signal).catch((err) => {
        throw wrapStream(err, job);
      });
      checkLength(job, bytes, download.size);
    }
    opts.onProgress?.({ phase: 'done', job, bytes });
    return to === undefined ? { job, bytes, pdf: Buffer.concat(chunks) } : { job, bytes };
  }
}

function checkLength(job: Generation, got: number, size: number): void {
  if (Number.isFinite(size) && got !== size)
    throw new ScriptoriumError(
      'UNEXPECTED_RESPONSE',
      `the PDF of ${job.id} came cut: ${got} of ${size} bytes`,
      { job },
    );
}

/** A broken download (the service cuts a damaged output, the network fails) as the client's error. */
function wrapStream(err: unknown, job: Generation): ScriptoriumError {
  if (err instanceof ScriptoriumError) return err;
  if ((err as Error)?.name === 'AbortError')
    return new ScriptoriumError('ABORTED', 'the download was aborted', { job, cause: err });
  return new ScriptoriumError(
    'CONNECTION_FAILED',
    `the download of ${job.id} broke: ${(err as Error).message}`,
    {
      job,
      cause: err,
    },
  );
}
