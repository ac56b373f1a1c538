// The last gate of an upload (issue: hardening): the image is decoded in full, as a render
// would, by the same decoders a thread of the pool has. The upload's own checks (header, chunks,
// CRCs, sizes) come first and decode nothing; this finds what only a decode can: a filter byte
// PNG does not define, a palette index past the palette, JPEG data that does not decode. JPEGs
// decode with jpeg-js in strict mode under a memory cap; PNGs with pngjs.
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ImageCheck, ImageCheckResult } from '../src/app/ports/renderer.ts';

/** jpeg-js's own cap on what one decode may allocate, MiB (an 8 MP image needs about 100). */
const JPEG_DECODE_MB = 256;

/** The image decoded in full (RGBA), or why it does not decode to what its header says. */
export function decodeImage(
  image: ImageCheck,
): { ok: true; width: number; height: number; rgba: Uint8Array } | { ok: false; message: string } {
  const bytes = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  const kind = image.type === 'image/png' ? 'PNG' : 'JPEG';
  let decoded: { width: number; height: number; data: Uint8Array };
  try {
    decoded =
      image.type === 'image/png'
        ? PNG.sync.read(bytes, { checkCRC: true })
        : jpeg.decode(bytes, {
            useTArray: true,
            tolerantDecoding: false,
            maxResolutionInMP: Math.ceil((image.width * image.height) / 1e6) + 1,
            maxMemoryUsageInMB: JPEG_DECODE_MB,
          });
  } catch (err) {
    return { ok: false, message: `the ${kind} does not decode: ${(err as Error).message}` };
  }
  if (decoded.width !== image.width || decoded.height !== image.height)
    return {
      ok: false,
      message: `the ${kind} decodes to ${decoded.width} x ${decoded.height} px, its header says ${image.width} x ${image.height}`,
    };
  return { ok: true, width: decoded.width, height: decoded.height, rgba: decoded.data };
}

export function checkImage(image: ImageCheck): ImageCheckResult {
  const decoded = decodeImage(image);
  return decoded.ok ? { ok: true } : decoded;
}
