// Batches (an extension of the service, docs/batches.md): many documents of one template in one
// request, waited for with progress, and their PDFs downloaded as one ZIP or merged as one PDF.
import type { Calls, CreateOptions, Page } from './calls.ts';
import { type Hold, type PollOptions, pollUntil } from './poll.ts';
import { type Destination, downloadOf, save } from './save.ts';
import type { components, operations } from './schema.ts';

type Schemas = components['schemas'];
export type Batch = Schemas['Batch'];
export type BatchRequest = Schemas['BatchRequest'];
export type BatchRowJob = Schemas['BatchRowList']['data'][number];
type Query<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export interface BatchWaitOptions extends PollOptions {
  /** Told of the batch at every poll until it ends: its rows by status. */
  onProgress?: (batch: Batch) => void;
}

const ENDED: readonly Batch['status'][] = ['completed', 'cancelled'];
const at = (id: string, rest = '') => `/batches/${encodeURIComponent(id)}${rest}`;

export class BatchesApi {
  constructor(private readonly calls: Calls) {}

  /** Queues a batch of JSON rows or CSV text; safe to retry (an Idempotency-Key goes with every call). */
  create(body: BatchRequest, opts: CreateOptions = {}): Promise<Batch> {
    return this.calls.post<Batch>('/batches', body, opts);
  }

  /** A batch; `hold` keeps the answer until it changes or the batch ends (up to `hold.wait` seconds). */
  get(id: string, signal?: AbortSignal, hold?: Hold): Promise<Batch> {
    return this.calls.get<Batch>(at(id), hold ? { ...hold } : undefined, signal);
  }

  list(q: Query<'listBatches'> = {}): Promise<Page<Batch>> {
    return this.calls.get<Page<Batch>>('/batches', q);
  }

  /** Every row of a batch in row order (narrowed by status), page after page. */
  rows(id: string, q: Omit<Query<'listBatchRows'>, 'cursor'> = {}): AsyncGenerator<BatchRowJob> {
    return this.calls.all<BatchRowJob>(at(id, '/rows'), q);
  }

  /** Cancels the rows not yet started; running ones finish. */
  cancel(id: string): Promise<Batch> {
    return this.calls.act<Batch>(at(id, '/cancel'));
  }

  /** Waits until every row ended (completed or cancelled), telling each change, as waitForCompletion does. */
  wait(id: string, opts: BatchWaitOptions = {}): Promise<Batch> {
    return pollUntil(
      this.calls.http,
      (hold) => this.get(id, opts.signal, hold),
      (b) => ENDED.includes(b.status),
      {
        ...opts,
        onPoll: (b) => opts.onProgress?.(b),
      },
      id,
    );
  }

  /**
   * The ZIP of every completed row's PDF: to a file (written whole or not at all), to a stream,
   * or as bytes. `name`: a metadata key whose value follows each entry's row index.
   */
  async download(
    id: string,
    opts: FileOptions & { name?: string } = {},
  ): Promise<{ bytes: number; zip?: Uint8Array }> {
    const saved = await this.file(id, '/download', opts.name ? { name: opts.name } : undefined, opts, {
      type: 'application/zip',
      what: `the ZIP of ${id}`,
    });
    return saved.kept ? { bytes: saved.bytes, zip: saved.kept } : { bytes: saved.bytes };
  }

  /**
   * For a batch sent with `merge: true`: every completed row's PDF (or, with `part: 'envelope'`,
   * its envelope) as one PDF in row order, to a file, a stream or as bytes. It is merged as it is
   * sent, so `onProgress` has no total (NaN).
   */
  async merged(
    id: string,
    opts: FileOptions & { part?: 'letter' | 'envelope' } = {},
  ): Promise<{ bytes: number; pdf?: Uint8Array }> {
    const saved = await this.file(id, '/merged', opts.part ? { part: opts.part } : undefined, opts, {
      type: 'application/pdf',
      what: `the merged PDF of ${id}`,
    });
    return saved.kept ? { bytes: saved.bytes, pdf: saved.kept } : { bytes: saved.bytes };
  }

  private async file(
    id: string,
    path: string,
    query: Record<string, string> | undefined,
    opts: FileOptions,
    of: { type: string; what: string },
  ) {
    const res = await this.calls.http.request('GET', at(id, path), {
      query,
      signal: opts.signal,
      retry: 'safe',
      stream: true,
    });
    return save(downloadOf(res, of.type), opts.to, {
      signal: opts.signal,
      onBytes: opts.onProgress,
      what: of.what,
    });
  }
}

/** Where a batch's file goes and who hears of its progress. */
export interface FileOptions {
  to?: Destination;
  signal?: AbortSignal;
  onProgress?: (bytes: number, total: number) => void;
}
