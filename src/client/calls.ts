// The client's calls over its Http: JSON reads, POSTs that carry an Idempotency-Key (made for
// every call unless given, so a retry is safe), and lists walked page after page.
import { ScriptoriumError } from './errors.ts';
import type { Http } from './http.ts';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface CreateOptions {
  /** Makes retries of this call safe; one is made for every call when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type Query = Record<string, string | number | undefined>;

export const newKey = () => globalThis.crypto.randomUUID();

/** The answer's JSON body; one that is not JSON is UNEXPECTED_RESPONSE. */
export const json = async <T>(res: Response): Promise<T> => {
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

export class Calls {
  constructor(readonly http: Http) {}

  async get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return json<T>(await this.http.request('GET', path, { query, signal, retry: 'safe' }));
  }

  async post<T>(path: string, body: unknown, opts: CreateOptions): Promise<T> {
    const res = await this.http.request('POST', path, {
      json: body,
      idempotencyKey: opts.idempotencyKey ?? newKey(),
      signal: opts.signal,
      retry: 'safe',
    });
    return json<T>(res);
  }

  /** A POST that is idempotent by itself (a cancel). */
  async act<T>(path: string): Promise<T> {
    return json<T>(await this.http.request('POST', path, { retry: 'safe' }));
  }

  /** Every item of a list, page after page. */
  async *all<T>(path: string, query: Query): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page = await this.get<Page<T>>(path, { ...query, cursor });
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
}
