// A download's body written where the caller wants it: to a file (written to `<path>.part` and
// renamed once whole, so a failure leaves no file), to a stream, or kept as bytes; its length
// checked against Content-Length.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ScriptoriumError } from './errors.ts';

export interface Download {
  /** The bytes as they arrive. */
  body: ReadableStream<Uint8Array>;
  /** Content-Length. */
  size: number;
  contentType: string;
}

export type Destination = string | NodeJS.WritableStream | WritableStream<Uint8Array>;

/**
 * Writes `download` to `to` (or keeps it when there is none), telling `onBytes` of its progress.
 * A broken or short body throws, said by `broken(err)` for the thing downloaded.
 */
export async function save(
  download: Download,
  to: Destination | undefined,
  opts: {
    signal?: AbortSignal | undefined;
    onBytes?: (bytes: number, total: number) => void;
    /** The thing downloaded, for messages ("the PDF of gen_…"). */
    what: string;
    /** Extra fields of the errors thrown (the job). */
    context?: ConstructorParameters<typeof ScriptoriumError>[2];
  },
): Promise<{ bytes: number; kept?: Uint8Array }> {
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  const counted = Readable.fromWeb(download.body as import('node:stream/web').ReadableStream<Uint8Array>).map(
    (chunk: Uint8Array) => {
      bytes += chunk.byteLength;
      opts.onBytes?.(bytes, download.size);
      if (to === undefined) chunks.push(chunk);
      return chunk;
    },
  );
  const signal = opts.signal ? { signal: opts.signal } : {};
  const wrap = (err: unknown): ScriptoriumError => {
    if (err instanceof ScriptoriumError) return err;
    if ((err as Error)?.name === 'AbortError')
      return new ScriptoriumError('ABORTED', 'the download was aborted', { ...opts.context, cause: err });
    return new ScriptoriumError(
      'CONNECTION_FAILED',
      `the download of ${opts.what} broke: ${(err as Error).message}`,
      {
        ...opts.context,
        cause: err,
      },
    );
  };
  const whole = () => {
    if (Number.isFinite(download.size) && bytes !== download.size)
      throw new ScriptoriumError(
        'UNEXPECTED_RESPONSE',
        `${opts.what} came cut: ${bytes} of ${download.size} bytes`,
        opts.context,
      );
  };
  if (typeof to === 'string') {
    const part = `${to}.part`;
    try {
      await pipeline(counted, createWriteStream(part), signal);
      whole();
      await rename(part, to);
    } catch (err) {
      await rm(part, { force: true });
      throw wrap(err);
    }
  } else {
    const sink = to
      ? to instanceof WritableStream
        ? Writable.fromWeb(to)
        : to
      : new Writable({ write: (_c, _e, cb) => cb() });
    await pipeline(counted, sink, signal).catch((err) => {
      throw wrap(err);
    });
    whole();
  }
  return to === undefined ? { bytes, kept: Buffer.concat(chunks) } : { bytes };
}

/** A streamed answer as a Download; one without a body is refused. */
export function downloadOf(res: Response, fallbackType: string): Download {
  if (!res.body)
    throw new ScriptoriumError('UNEXPECTED_RESPONSE', 'the download has no body', { status: res.status });
  return {
    body: res.body,
    size: Number(res.headers.get('content-length') ?? Number.NaN),
    contentType: res.headers.get('content-type') ?? fallbackType,
  };
}
