// Blob storage port: PDFs, previews, assets and personal fonts. Two adapters (a directory and
// S3) pass one contract suite.
import { unavailable } from '../domain/errors.ts';

export interface BlobStore {
  /**
   * Makes the store ready at start: fails, naming the service, when it does not answer; creates
   * what is missing (the bucket, the directory); sets the retention backstop where the backend
   * has one (outputs expire after `outputDays` and a day of slack), warning where it cannot.
   */
  prepare(opts: { outputDays: number; warn: (message: string) => void }): Promise<void>;
  /** Resolves when the store answers now (the directory is there, the bucket reachable); a readiness probe. */
  ping(): Promise<void>;
  /** Writes the whole object; a reader never sees half of it. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The whole object, or null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the object; absent is fine. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The object as a stream of chunks with its size, for downloads that must not hold it whole. */
  open(key: string): Promise<BlobStream | null>;
  /** Every key under a prefix (`outputs/`), for the sweeper. */
  list(prefix: string): AsyncIterable<string>;
}

export interface BlobStream {
  size: number;
  chunks: AsyncIterable<Uint8Array>;
  /** Stops reading early (the client went away). */
  close(): void;
}

/**
 * Faults of the storage, not of the request: no space (ENOSPC, EDQUOT, MinIO's
 * XMinioStorageFull), a read-only or failing disk, an S3 server that cannot be reached or says
 * it is busy. Adapters say these as an `unavailable` refusal, so callers answer 503 or try later.
 */
export function blobFault(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return [
    'ENOSPC',
    'EDQUOT',
    'EROFS',
    'EIO',
    'EMFILE',
    'ENFILE',
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'XMinioStorageFull',
    'XMinioServerNotInitialized',
    'SlowDown',
    'ServiceUnavailable',
    'InternalError',
  ].includes(code);
}

/** Runs one blob operation, saying a storage fault as an `unavailable` refusal. */
export async function guarded<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (blobFault(err)) throw unavailable(what, err);
    throw err;
  }
}

/** Keys are paths of safe segments: no traversal, no absolute paths. */
export function checkKey(key: string): string {
  if (
    !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) ||
    key.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  }
  return key;
}
