// Uploaded images (spec §4 Assets): PNG or JPEG, told apart by their magic bytes, never by the
// Content-Type alone. Dimensions come from the header and the limits are enforced BEFORE any
// decoding; the structure is then walked (PNG chunks with their CRCs, JPEG markers to the end of
// image) so that a truncated or corrupt file is refused at upload, not at render time.
import { crc32 } from 'node:zlib';
import { imageSize } from 'image-size';
import { apiRefusal } from './errors.ts';

export const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface ImageLimits {
  maxBytes: number;
  maxSide: number;
  maxPixels: number;
}

export interface CheckedImage {
  type: ImageType;
  width: number;
  height: number;
  /** PNG only: the zlib stream of the pixels and the exact size it must inflate to. */
  pixels?: { deflated: Buffer; inflatedBytes: number };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the first bytes say the file is; names the common types we refuse. */
export function sniff(bytes: Uint8Array): ImageType | string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'WebP';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'GIF';
  const head = b.toString('utf8', 0, Math.min(b.length, 256)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'SVG';
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'BMP';
  if (b.length >= 4 && (b.readUInt32BE(0) === 0x49492a00 || b.readUInt32BE(0) === 0x4d4d002a)) return 'TIFF';
  return 'an unknown format';
}

const bad = (message: string) => apiRefusal('INVALID_REQUEST', message, { field: 'body' });

/**
 * Checks an upload against the type it was labelled with and the limits. Throws a Refusal
 * (400, or 413 for the byte limit) naming what was wrong; decodes nothing.
 */
export function checkImage(
  bytes: Uint8Array,
  declared: string | undefined,
  limits: ImageLimits,
): CheckedImage {
  if (bytes.byteLength > limits.maxBytes) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `an image must be at most ${limits.maxBytes} bytes, got ${bytes.byteLength}`,
      {
        status: 413,
        field: 'body',
      },
    );
  }
  const label = (declared ?? '').split(';')[0]!.trim().toLowerCase() as ImageType;
  if (!IMAGE_TYPES.includes(label)) {
    throw apiRefusal(
      'INVALID_REQUEST',
      `Content-Type must be image/png or image/jpeg, got ${declared ? JSON.stringify(declared.slice(0, 60)) : 'nothing'}`,
      {
        field: 'Content-Type',
      },
    );
  }
  if (bytes.byteLength === 0) throw bad('the body must be a PNG or JPEG image, got 0 bytes');
  const actual = sniff(bytes);
  if (actual !== label) {
    const what: Record<string, string> = {
      'image/png': 'a PNG image',
      'image/jpeg': 'a JPEG image',
      SVG: 'an SVG image',
    };
    throw bad(
      `Content-Type says ${label} but the bytes are ${what[actual] ?? (actual === 'an unknown format' ? 'not a PNG or JPEG image' : `a ${actual} image`)}`,
    );
  }

  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // A JPEG's frame header is found by walking its markers (which decodes nothing): image-size
  // stops at fill bytes before a marker, which T.81 allows.
  const jpegFrame = label === 'image/jpeg' ? walkJpeg(b) : null;
  let size: { width?: number; height?: number };
  try {
    size = jpegFrame ?? imageSize(bytes);
  } catch {
    throw bad(`the ${label} header is truncated or corrupt (${bytes.byteLength} bytes)`);
  }
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) throw bad(`the ${label} header declares ${width} x ${height} px`);
  if (width > limits.maxSide || height > limits.maxSide) {
    throw bad(`an image side must be at most ${limits.maxSide} px, got ${width} x ${height} px`);
  }
  if (width * height > limits.maxPixels) {
    throw bad(
      `an image must have at most ${limits.maxPixels} pixels, got ${width * height} (${width} x ${height} px)`,
    );
  }

  if (label === 'image/png') return { type: label, width, height, pixels: walkPng(b, width, height) };
  return { type: label, width, height };
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Bit depths each colour type allows (ISO/IEC 15948 §11.2.2, Table 11.1). */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * PNG (ISO/IEC 15948): every chunk's length and CRC, IHDR first and well-formed (a colour type
 * with a bit depth it allows, compression and filter method 0, interlace 0 or 1), a palette
 * where one is needed and nowhere else, at most 2^depth entries, before the pixels; tRNS of the
 * size its colour type gives; IDAT together, IEND last.
 */
function walkPng(b: Buffer, width: number, height: number): CheckedImage['pixels'] {
  let at = 8;
  let ihdr: Buffer | null = null;
  let palette = 0;
  let transparency: number | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (at < b.length) {
    if (at + 12 > b.length)
      throw bad(`the PNG is truncated: a chunk header is cut at byte ${at} of ${b.length}`);
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > b.length)
      throw bad(
        `the PNG is truncated: chunk ${JSON.stringify(type)} needs ${length} bytes, ${b.length - at - 12} remain`,
      );
    const data = b.subarray(at + 8, at + 8 + length);
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) {
      throw bad(`the PNG is corrupt: chunk ${JSON.stringify(type)} at byte ${at} fails its CRC`);
    }
    if (!ihdr && type !== 'IHDR') throw bad('the PNG is corrupt: IHDR is not the first chunk');
    if (type === 'IHDR') {
      if (ihdr) throw bad('the PNG is corrupt: it has two IHDR chunks');
      ihdr = checkHeader(data);
    } else if (type === 'PLTE') {
      if (idat.length) throw bad('the PNG is corrupt: its palette (PLTE) comes after the image data');
      if (palette) throw bad('the PNG is corrupt: it has two palettes (PLTE)');
      palette = checkPalette(data, ihdr![9]!, ihdr![8]!);
    } else if (type === 'tRNS') transparency = length;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      ended = true;
      at += 12 + length;
      break;
    }
    at += 12 + length;
  }
  if (!ended) throw bad('the PNG is truncated: it has no IEND chunk');
  if (at !== b.length) throw bad(`the PNG has ${b.length - at} bytes after its IEND chunk`);
  if (!ihdr) throw bad('the PNG is corrupt: its IHDR chunk is malformed');
  if (idat.length === 0) throw bad('the PNG has no image data (IDAT)');
  const [depth, colour] = [ihdr[8]!, ihdr[9]!];
  if (colour === 3 && !palette) throw bad('the PNG is corrupt: a palette image without a palette (PLTE)');
  if (transparency !== null) {
    const allowed = colour === 0 ? [2] : colour === 2 ? [6] : colour === 3 ? null : [];
    if (allowed ? !allowed.includes(transparency) : transparency > palette)
      throw bad(
        `the PNG is corrupt: its transparency (tRNS) of ${transparency} bytes does not fit colour type ${colour}${colour === 3 ? ` with ${palette} palette entries` : ''}`,
      );
  }
  const bitsPerPixel = CHANNELS[colour]! * depth;
  const rowBytes = (w: number) => (w === 0 ? 0 : 1 + Math.ceil((w * bitsPerPixel) / 8));
  let inflatedBytes = 0;
  if (ihdr[12] === 1) {
    for (const [x0, y0, dx, dy] of ADAM7) {
      const w = Math.ceil((width - x0) / dx);
      const h = Math.ceil((height - y0) / dy);
      if (w > 0 && h > 0) inflatedBytes += h * rowBytes(w);
    }
  } else inflatedBytes = height * rowBytes(width);
  return { deflated: Buffer.concat(idat), inflatedBytes };
}

/** IHDR (§11.2.2): 13 bytes; a colour type with a depth it allows; methods the standard defines. */
function checkHeader(data: Buffer): Buffer {
  if (data.length !== 13) throw bad(`the PNG is corrupt: its IHDR chunk has ${data.length} bytes, not 13`);
  const [depth, colour, compression, filter, interlace] = [
    data[8]!,
    data[9]!,
    data[10]!,
    data[11]!,
    data[12]!,
  ];
  const depths = DEPTHS[colour];
  if (!depths) throw bad(`the PNG declares colour type ${colour}; allowed are 0, 2, 3, 4 and 6`);
  if (!depths.includes(depth))
    throw bad(
      `the PNG declares bit depth ${depth} for colour type ${colour}, which allows ${depths.join(', ')}`,
    );
  if (compression !== 0) throw bad(`the PNG declares compression method ${compression}; only 0 exists`);
  if (filter !== 0) throw bad(`the PNG declares filter method ${filter}; only 0 exists`);
  if (interlace > 1) throw bad(`the PNG declares interlace method ${interlace}; only 0 and 1 exist`);
  return data;
}

/** PLTE (§11.2.3): 1 to 256 RGB entries, no more than the depth can index; not for grey images. */
function checkPalette(data: Buffer, colour: number, depth: number): number {
  if (colour === 0 || colour === 4)
    throw bad(`the PNG is corrupt: a grey image (colour type ${colour}) carries a palette (PLTE)`);
  const entries = data.length / 3;
  const most = colour === 3 ? 2 ** depth : 256;
  if (!Number.isInteger(entries) || entries < 1 || entries > most)
    throw bad(`the PNG's palette must hold 1 to ${most} entries of 3 bytes, got ${data.length} bytes`);
  return entries;
}

/** Scans a progressive JPEG may have: each is a pass over the whole image at decode time. */
export const JPEG_MAX_SCANS = 100;

/**
 * JPEG (ITU T.81): marker segments up to each scan, the entropy-coded data, then EOI; fill bytes
 * (0xFF) before a marker are legal (§B.1.1.2). At most JPEG_MAX_SCANS scans: a file of
 * thousands of tiny scans costs a decoder seconds per megabyte.
 */
function walkJpeg(b: Buffer): { width: number; height: number } {
  let at = 2;
  let frame: { width: number; height: number } | null = null;
  let scans = 0;
  for (;;) {
    if (at + 2 > b.length)
      throw bad(`the JPEG is truncated at byte ${at} of ${b.length}: no end-of-image marker`);
    if (b[at] !== 0xff) throw bad(`the JPEG is corrupt: expected a marker at byte ${at}`);
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      if (!frame) throw bad('the JPEG ends before any image frame');
      return frame;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > b.length) throw bad(`the JPEG is truncated at byte ${at} of ${b.length}`);
    const length = b.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > b.length)
      throw bad(`the JPEG is truncated: segment at byte ${at} needs ${length} bytes`);
    if (!frame && marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) throw bad(`the JPEG is corrupt: its frame header at byte ${at} is too short`);
      frame = { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + length;
    if (marker !== 0xda) continue;
    if (++scans > JPEG_MAX_SCANS)
      throw bad(`a JPEG may have at most ${JPEG_MAX_SCANS} scans; this one has more (at byte ${at})`);
    // Entropy-coded data: FF 00 is a stuffed byte and FF D0-D7 a restart; any other marker ends it.
    while (
      at + 1 < b.length &&
      !(b[at] === 0xff && b[at + 1] !== 0x00 && !(b[at + 1]! >= 0xd0 && b[at + 1]! <= 0xd7))
    )
      at++;
  }
}
