// Answers sent gzip-coded to a client that takes them, coded off the event loop.
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

/** JSON answers longer than this are sent gzip-coded to a client that takes it. */
export const GZIP_MIN_BYTES = 1024;
const gzipAsync = promisify(gzipCallback);
/** Bodies that are the same bytes every time (the OpenAPI document) are coded once. */
const codedOnce = new WeakMap<Uint8Array, Buffer>();

/** A body gzip-coded off the event loop (on libuv's threads). */
export async function gzipped(body: string | Uint8Array): Promise<Buffer> {
  if (typeof body === 'string') return gzipAsync(body);
  let coded = codedOnce.get(body);
  if (!coded) {
    coded = await gzipAsync(body);
    codedOnce.set(body, coded);
  }
  return coded;
}

/** RFC 9110 §12.5.3: gzip (or x-gzip) listed with a weight above 0, or else `*` so listed. */
export function acceptsGzip(value: string | readonly string[] | undefined): boolean {
  if (value === undefined) return false;
  let named: boolean | undefined;
  let any = false;
  for (const item of (typeof value === 'string' ? value : value.join(',')).split(',')) {
    const [coding, ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weighted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') named = (named ?? false) || weighted;
    else if (coding === '*') any = weighted;
  }
  return named ?? any;
}
