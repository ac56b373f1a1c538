// zlib streams by libdeflate (native/deflate.c, built into dist/server/native/ by scripts/build.mjs):
// what the render threads compress PDF streams and PNG pixels with. Whole buffers at a time, as
// the engine hands them over; on a caption's 3.2 MB of pixels at level 1 about a fifth quicker
// than Node's zlib at its level 1 and a tenth fewer bytes (docs/decisions.md, "Deflate").
import { createRequire } from 'node:module';

interface Libdeflate {
  /** A zlib stream (RFC 1950) of `input` at `level` (1-12); the addon's own for each thread. */
  zlib(input: Uint8Array, level: number): Buffer;
}

const addon = createRequire(import.meta.url)('#native/deflate') as Libdeflate;

/** `input` as a zlib stream at libdeflate's `level`, 1 (quickest) to 12. */
export function zlibDeflate(input: Uint8Array, level: number): Buffer {
  return addon.zlib(input, level);
}
