// PNG decoding for the PDF writer, which takes grey and RGB PNGs as they are but must decode the
// rest (palette, 16 bits, interlacing, transparency) to pixels: pngjs, to 8-bit RGBA.
import { PNG } from 'pngjs';

export function decodePng(bytes: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, rgba: png.data };
}
