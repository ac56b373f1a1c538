// A small PNG encoder (ISO/IEC 15948): 8-bit RGB when every pixel is opaque (a page: a quarter
// fewer bytes to deflate), else RGBA; filter 0, with the caller's deflate and CRC-32, or with
// stored (uncompressed) deflate blocks and the engine's own CRC when none are given, for tiny
// images made in the engine.
import { crc32 } from './crc32.ts';

/** Each chunk's length, type, data and CRC, one after another, in one buffer. */
function chunks(
  parts: readonly [type: string, data: Uint8Array][],
  crc: (b: Uint8Array) => number,
): Uint8Array {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const out = new Uint8Array(parts.reduce((n, [, data]) => n + 12 + data.length, signature.length));
  const view = new DataView(out.buffer);
  out.set(signature);
  let at = signature.length;
  for (const [type, data] of parts) {
    view.setUint32(at, data.length);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
    out.set(data, at + 8);
    view.setUint32(at + 8 + data.length, crc(out.subarray(at + 4, at + 8 + data.length)));
    at += 12 + data.length;
  }
  return out;
}

// The filtered rows of the last image, reused: a fresh 4 MB buffer a render costs a thousand page
// faults. The deflate function must not keep its input.
let rows = new Uint8Array(0);
function scratch(size: number): Uint8Array {
  if (rows.length < size || rows.length > 4 * size) rows = new Uint8Array(size);
  return rows.subarray(0, size);
}

/** How the encoder compresses and checks an image (by default: `storedDeflate`, the engine's own CRC). */
export interface PngEncoding {
  deflate?: (b: Uint8Array) => Uint8Array;
  /** CRC-32 of ISO 3309 (a native one is ten times quicker over a page's megabyte). */
  crc32?: (b: Uint8Array) => number;
}

/** An RGBA image as PNG (8-bit, no interlace, filter 0 on every row; RGB when it is opaque). */
export function encodePng(
  width: number,
  height: number,
  rgba: Uint8Array,
  how: PngEncoding = {},
): Uint8Array {
  const opaque = rgba.byteOffset % 4 === 0 && packRgb(width, height, rgba);
  const stride = width * 4;
  const raw = opaque ? rows.subarray(0, (width * 3 + 1) * height) : scratch((stride + 1) * height);
  if (!opaque)
    for (let y = 0; y < height; y++) {
      raw[y * (stride + 1)] = 0;
      raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
    }
  return encodeRows(width, height, raw, opaque, how);
}

/** Rows already filtered (filter byte 0, then RGB or RGBA) as PNG. */
export function encodeRows(
  width: number,
  height: number,
  raw: Uint8Array,
  opaque: boolean,
  how: PngEncoding = {},
): Uint8Array {
  const { deflate = storedDeflate, crc32: crc = crc32 } = how;
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
  return chunks(
    [
      ['IHDR', ihdr],
      ['IDAT', deflate(raw)],
      ['IEND', new Uint8Array(0)],
    ],
    crc,
  );
}

/** Stretches of each row, as column pairs (from, to): row y's are `of[rows[y]…rows[y + 1]]`. */
export interface Spans {
  of: Int32Array;
  rows: Int32Array;
}

/**
 * The rows of an opaque page as filtered RGB (into the scratch rows, see encodeRows) where every
 * pixel outside `spans` is the bare paper: a row of paper copied down the image, then the
 * stretches packed from the RGBA pixels. A page's writing covers a tenth of it; the rest costs
 * the copy alone.
 */
export function paperRows(
  width: number,
  height: number,
  rgba: Uint8Array,
  paper: readonly [number, number, number],
  spans: Spans,
): Uint8Array {
  const line = width * 3 + 1;
  const raw = scratch(line * height);
  raw[0] = 0;
  for (let x = 0, i = 1; x < width; x++, i += 3) {
    raw[i] = paper[0];
    raw[i + 1] = paper[1];
    raw[i + 2] = paper[2];
  }
  // Doubling copies: 20 of them for a page of a thousand rows.
  for (let done = line, all = line * height; done < all; done *= 2)
    raw.copyWithin(done, 0, Math.min(done, all - done));
  const { of, rows: at } = spans;
  // Each pixel one word (little-endian: R G B A; a copy where the pixels are not aligned).
  const words = new Int32Array(
    rgba.byteOffset % 4 === 0 ? rgba.buffer : new Uint8Array(rgba).buffer,
    rgba.byteOffset % 4 === 0 ? rgba.byteOffset : 0,
    width * height,
  );
  for (let y = 0; y < height; y++) {
    const row = y * line + 1;
    const first = y * width;
    for (let k = at[y]!, to = at[y + 1]!; k < to; k += 2) {
      const end = of[k + 1]!;
      for (let x = of[k]!; x < end; x++) {
        const v = words[first + x]!;
        const o = row + 3 * x;
        raw[o] = v & 0xff;
        raw[o + 1] = (v >>> 8) & 0xff;
        raw[o + 2] = (v >>> 16) & 0xff;
      }
    }
  }
  return raw;
}

/**
 * The rows of an image as filtered RGB (into the scratch rows), if every pixel is opaque; false,
 * and nothing to use, if one is not. Four pixels (four words) at a time become three words, in a
 * row of whole words copied after the row's filter byte; the last few of a row byte by byte.
 */
function packRgb(width: number, height: number, rgba: Uint8Array): boolean {
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, width * height);
  const line = width * 3 + 1;
  const raw = scratch(line * height);
  const row = new Int32Array(Math.ceil((width * 3) / 4));
  const bytes = new Uint8Array(row.buffer);
  const whole = width - (width % 4);
  let alpha = -1;
  for (let y = 0; y < height; y++) {
    const first = y * width;
    for (let i = first, o = 0, end = first + whole; i < end; i += 4, o += 3) {
      const a = words[i]!;
      const b = words[i + 1]!;
      const c = words[i + 2]!;
      const d = words[i + 3]!;
      alpha &= a & b & c & d;
      // Little-endian words: R G B A. Out: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3.
      row[o] = (a & 0xffffff) | (b << 24);
      row[o + 1] = ((b >>> 8) & 0xffff) | (c << 16);
      row[o + 2] = ((c >>> 16) & 0xff) | (d << 8);
    }
    for (let x = whole; x < width; x++) {
      const i = 4 * (first + x);
      alpha &= rgba[i + 3]! << 24;
      bytes[3 * x] = rgba[i]!;
      bytes[3 * x + 1] = rgba[i + 1]!;
      bytes[3 * x + 2] = rgba[i + 2]!;
    }
    if (alpha >>> 24 !== 0xff) return false;
    raw[y * line] = 0;
    raw.set(bytes.subarray(0, width * 3), y * line + 1);
  }
  return true;
}

/** A zlib stream of stored blocks (RFC 1950/1951): valid, uncompressed, pure JavaScript. */
export function storedDeflate(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65_535));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const part = data.subarray(b * 65_535, Math.min(data.length, (b + 1) * 65_535));
    out[at] = b === blocks - 1 ? 1 : 0;
    out[at + 1] = part.length & 0xff;
    out[at + 2] = part.length >>> 8;
    out[at + 3] = ~part.length & 0xff;
    out[at + 4] = (~part.length >>> 8) & 0xff;
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  let [a, c] = [1, 0];
  for (let i = 0; i < data.length; i++) {
    a = (a + data[i]!) % 65_521;
    c = (c + a) % 65_521;
  }
  new DataView(out.buffer).setUint32(at, ((c << 16) | a) >>> 0);
  return out;
}
