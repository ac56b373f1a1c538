// Scriptorium's typed client for integrators: every public endpoint, with the types of the
// service's OpenAPI document (./schema.ts is generated from it; a test fails if they drift).
// Node 20's fetch and nothing else at run time.
//
//   const client = new Scriptorium({ apiKey: process.env.SCRIPTORIUM_API_KEY, baseUrl });
//   const job = await client.generate({ templateId, text }, { to: 'letter.pdf' });
import { BatchesApi } from './batches.ts';
import { Calls, type CreateOptions, json, newKey, type Page, type Query as Params } from './calls.ts';
import { ScriptoriumError } from './errors.ts';
import { type ClientOptions, Http } from './http.ts';
import { type Hold, type PollOptions, pollUntil } from './poll.ts';
import { type Destination, type Download, downloadOf, save } from './save.ts';
import type { components, operations } from './schema.ts';

export { ScriptoriumError } from './errors.ts';
export type { ApiErrorCode, ClientErrorCode, LimitReason, ScriptoriumErrorCode } from './errors.ts';
export type { ClientOptions, RateLimitState, RetryEvent } from './http.ts';
export { SIGNATURE_HEADER, signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from './webhooks.ts';
export type { BatchWebhookEvent, WebhookEvent, WebhookTestEvent } from './webhooks.ts';
export type { components, operations, paths } from './schema.ts';
export type { Batch, BatchRequest, BatchRowJob, BatchWaitOptions } from './batches.ts';
export type { CreateOptions, Page } from './calls.ts';
export type { Hold, PollOptions } from './poll.ts';
export type { Destination, Download } from './save.ts';

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

export interface WaitOptions extends PollOptions {
  onProgress?: (p: Progress) => void;
}

export interface GenerateOptions extends WaitOptions {
  /** A file path (written whole or not at all) or a stream to write the PDF to; without one, the bytes are returned. */
  to?: Destination;
  idempotencyKey?: string;
}

export class Scriptorium {
  private readonly http: Http;
  private readonly calls: Calls;

  constructor(opts: ClientOptions = {}) {
    this.http = new Http(opts);
    this.calls = new Calls(this.http);
    this.batches = new BatchesApi(this.calls);
  }

  /** The key's own request limit as the last answer told it (`remaining`, `resetSeconds`). */
  get rateLimit() {
    return this.http.rateLimit;
  }

  private get<T>(path: string, query?: Params, signal?: AbortSignal) {
    return this.calls.get<T>(path, query, signal);
  }

  private post<T>(path: string, body: unknown, opts: CreateOptions) {
    return this.calls.post<T>(path, body, opts);
  }

  private all<T>(path: string, query: Params) {
    return this.calls.all<T>(path, query);
  }

  readonly templates = {
    list: (q: ListQuery = {}) => this.get<Page<TemplateSummary>>('/templates', q),
    all: () => this.all<TemplateSummary>('/templates', {}),
    get: (id: string) => this.get<Template>(`/templates/${encodeURIComponent(id)}`),
  };

  readonly fonts = {
    list: (q: ListQuery = {}) => this.get<Page<Font>>('/fonts', q),
    all: () => this.all<Font>('/fonts', {}),
    /** A font the account built from a hand, as a file for other software (OpenType or WOFF2), streamed. */
    file: async (
      id: string,
      opts: { format?: 'otf' | 'woff2'; signal?: AbortSignal } = {},
    ): Promise<Download> => {
      const format = opts.format ?? 'otf';
      const res = await this.http.request('GET', `/fonts/${encodeURIComponent(id)}/file?format=${format}`, {
        signal: opts.signal,
        retry: 'safe',
        stream: true,
      });
      return downloadOf(res, `font/${format}`);
    },
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
    /** A job; `hold` keeps the answer until it changes or the job ends (up to `hold.wait` seconds). */
    get: (id: string, signal?: AbortSignal, hold?: Hold) =>
      this.get<Generation>(`/generations/${encodeURIComponent(id)}`, hold ? { ...hold } : undefined, signal),
    list: (q: ListGenerationsQuery = {}) => this.get<Page<Generation>>('/generations', q),
    all: (q: Omit<ListGenerationsQuery, 'cursor'> = {}) => this.all<Generation>('/generations', q),
    cancel: (id: string) => this.calls.act<Generation>(`/generations/${encodeURIComponent(id)}/cancel`),
    /** The PDF of a completed job, streamed. */
    download: async (idOrJob: string | Generation, signal?: AbortSignal): Promise<Download> => {
      const path =
        typeof idOrJob === 'string'
          ? `/generations/${encodeURIComponent(idOrJob)}/download`
          : (idOrJob.downloadUrl ?? `/generations/${encodeURIComponent(idOrJob.id)}/download`);
      const res = await this.http.request('GET', path, { signal, retry: 'safe', stream: true });
      return downloadOf(res, 'application/pdf');
    },
    waitForCompletion: (id: string, opts: WaitOptions = {}) => this.waitForCompletion(id, opts),
  };

  /** Batches (an extension): many documents of one template in one request. */
  readonly batches: BatchesApi;

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
    return pollUntil(
      this.http,
      (hold) => this.generations.get(id, opts.signal, hold),
      (job) => FINAL.includes(job.status),
      {
        ...opts,
        onPoll: (job, waitedMs) =>
          opts.onProgress?.({ phase: job.status as 'queued' | 'processing', job, waitedMs }),
        onWait: (job, waitMs, reason) => opts.onProgress?.({ phase: 'waiting', job, waitMs, reason }),
        timeoutError: (job, message) => new ScriptoriumError('TIMEOUT', message, job ? { job } : {}),
      },
      id,
    );
  }

  /**
   * Submits a PDF job, waits for it and downloads the PDF: to a file (written to `<path>.part`
   * and renamed once whole, so a failure leaves no file), to a stream, or as bytes. A job that
   * ends failed or cancelled throws with its error code and the job.
   */
  async generate(
    body: GenerationRequest,
    opts: GenerateOptions & { to: Destination },
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
    const saved = await save(download, opts.to, {
      signal: opts.signal,
      onBytes: (bytes, total) => opts.onProgress?.({ phase: 'downloading', job, bytes, total }),
      what: `the PDF of ${job.id}`,
      context: { job },
    });
    opts.onProgress?.({ phase: 'done', job, bytes: saved.bytes });
    return saved.kept ? { job, bytes: saved.bytes, pdf: saved.kept } : { job, bytes: saved.bytes };
  }
}
