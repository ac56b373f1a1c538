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

/** A PNG whose every header field and extra chunk is chosen (to break one rule at a time). */
export function pngOf(o: {
  width: number;
  height: number;
  depth: number;
  colour: number;
  /** The rows as they inflate: a filter byte, then the packed samples, per row. */
  raw: Buffer;
  compression?: number;
  filterMethod?: number;
  interlace?: number;
  /** Chunks between IHDR and IDAT, such as PLTE and tRNS. */
  before?: [string, Buffer][];
}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(o.width, 0);
  ihdr.writeUInt32BE(o.height, 4);
  ihdr.set([o.depth, o.colour, o.compression ?? 0, o.filterMethod ?? 0, o.interlace ?? 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(o.before ?? []).map(([type, data]) => chunk(type, data)),
    chunk('IDAT', deflateSync(o.raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 4 x 2 palette PNG (8 bits) of these indices, with a palette of `entries` colours. */
export function palettePng(indices: number[], entries: number, filter = 0): Buffer {
  const raw = Buffer.from([filter, ...indices.slice(0, 4), filter, ...indices.slice(4, 8)]);
  const plte = Buffer.alloc(entries * 3, 0x80);
  return pngOf({ width: 4, height: 2, depth: 8, colour: 3, raw, before: [['PLTE', plte]] });
}

/** The baseline JPEG fixture with 0xFF fill bytes before each marker after SOI (legal, T.81 §B.1.1.2). */
export function jpegWithFillBytes(): Buffer {
  const out: number[] = [0xff, 0xd8];
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    out.push(0xff, 0xff, 0xff); // two fill bytes, then the marker's own 0xFF
    if (marker === 0xd9) {
      out.push(0xd9);
      break;
    }
    const length = jpeg.readUInt16BE(at + 2);
    let end = at + 2 + length;
    if (marker === 0xda) {
      // The entropy-coded data runs to the next marker that is not a stuffed byte or a restart.
      while (
        end + 1 < jpeg.length &&
        !(jpeg[end] === 0xff && jpeg[end + 1] !== 0 && !(jpeg[end + 1]! >= 0xd0 && jpeg[end + 1]! <= 0xd7))
      )
        end++;
    }
    out.push(...jpeg.subarray(at + 1, end));
    at = end;
  }
  return Buffer.from(out);
}

/** The progressive JPEG fixture with its first scan repeated until it has `scans` scans. */
export function jpegWithScans(scans: number): Buffer {
  const sos = progressiveJpeg.indexOf(Buffer.from([0xff, 0xda]));
  let end = sos + 2 + progressiveJpeg.readUInt16BE(sos + 2);
  while (
    !(
      progressiveJpeg[end] === 0xff &&
      progressiveJpeg[end + 1] !== 0 &&
      !(progressiveJpeg[end + 1]! >= 0xd0 && progressiveJpeg[end + 1]! <= 0xd7)
    )
  )
    end++;
  const scan = progressiveJpeg.subarray(sos, end);
  return Buffer.concat([
    progressiveJpeg.subarray(0, sos),
    ...Array.from({ length: scans }, () => scan),
    Buffer.from([0xff, 0xd9]),
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
