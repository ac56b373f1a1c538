// Test images made on the spot: PNGs built chunk by chunk (so a test can break any part of
// one), plus two small JPEG fixtures (baseline and progressive) in test/fixtures.
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export interface PngOptions {
  /** The pixel stream to deflate; by default the exact rows the header promises. */
  raw?: Buffer;
  /** Dimensions written in IHDR (default: the real ones). */
  declared?: { width: number; height: number };
}

/** An RGB 8-bit PNG of `width` x `height` with a simple gradient. */
export function png(width: number, height: number, opts: PngOptions = {}): Buffer {
  const rowBytes = 1 + width * 3;
  let raw = opts.raw;
  if (!raw) {
    raw = Buffer.alloc(height * rowBytes);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++)
        raw.set([(x * 255) / width, (y * 255) / height, 128], y * rowBytes + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.declared?.width ?? width, 0);
  ihdr.writeUInt32BE(opts.declared?.height ?? height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1 KB PNG whose header is honest (16 x 16) but whose pixel stream inflates to 1 MiB. */
export function zlibBomb(): Buffer {
  return png(16, 16, { raw: Buffer.alloc(1024 * 1024) });
}

/** A 1 KB PNG whose header claims 50,000 x 50,000 px of zeros (10 GB once decoded). */
export function giantBomb(): Buffer {
  return png(1, 1, { raw: Buffer.alloc(1024 * 1024), declared: { width: 50_000, height: 50_000 } });
}

export const jpeg = readFileSync(new URL('../fixtures/gradient-64x48.jpg', import.meta.url));
export const progressiveJpeg = readFileSync(new URL('../fixtures/progressive-64x48.jpg', import.meta.url));
export const webp = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(24),
]);
export const gif = Buffer.concat([
  Buffer.from('GIF89a'),
  Buffer.from([1, 0, 1, 0, 0, 0, 0]),
  Buffer.from([0x3b]),
]);
export const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
