// PDF writer (ISO 32000-1), a small serializer of its own. The letters' drawings are the glyphs
// of one compact font program for the whole document (a CID-keyed CFF, cff.ts, §9.7.4), each
// placed per instance with its own text matrix (`a b c d e f Tm <gid> Tj`, §9.4.2): never an
// outline repeated per instance. The drawn glyphs carry an empty /ActualText (§14.9.4), so text
// extraction skips them (and reads them as spaces where it does not honour that); each line's
// text is laid over the drawing in text render mode 3 (invisible, §9.3.6) with a Type 3 font
// whose glyphs are empty and whose ToUnicode map gives the characters back, so the text is
// selectable and searchable in any script. Pure: compression and the date come in as arguments.
import { hexRgb, letterInk } from '../color.ts';
import { round } from '../numbers.ts';
import {
  type DisplayList,
  type DisplayPage,
  type GlyphDef,
  type Item,
  KEPT_DRAWINGS,
} from '../display-list.ts';
import { charString, cidFont } from './cff.ts';
import { crc32 } from './crc32.ts';
import { pdfString } from './pdf-string.ts';
import type { AssetBytes } from './svg.ts';
import { RenderError } from '../text/text-layout.ts';

export interface PdfOptions {
  /** A zlib stream's deflate for streams (the render threads pass libdeflate's); streams stay plain without it. */
  deflate?: (bytes: Uint8Array) => Uint8Array;
  /** Creation date written in the metadata, so the same input gives the same bytes. */
  createdAt?: string;
  title?: string;
  /** Output limit in bytes, checked while writing (spec §8: 55 MB). */
  maxBytes?: number;
  /** Bytes of the images the pages place (validated at upload). */
  assets?: AssetBytes;
  /**
   * Decodes a PNG to 8-bit RGBA (the caller passes pngjs's), for the PNGs a PDF cannot take as
   * they are: with transparency, a palette, 16 bits or interlacing. Without it they are refused.
   */
  decodePng?: (bytes: Uint8Array) => { width: number; height: number; rgba: Uint8Array };
}

interface PdfImage {
  dict: string;
  data: Uint8Array;
  width: number;
  height: number;
  /** Whether `data` is still to be compressed (decoded pixels) or is written as it is. */
  raw?: boolean;
  /** Transparency as a soft mask (§11.6.5.3): one 8-bit grey sample a pixel, uncompressed. */
  alpha?: Uint8Array;
}

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/**
 * An image as a PDF image XObject: JPEG as is (DCTDecode, §7.4.8); an 8-bit, non-interlaced grey
 * or RGB PNG without transparency as its own zlib stream with the PNG predictors (§7.4.4.4); any
 * other PNG decoded to RGB pixels with its transparency as a soft mask.
 */
function pdfImage(assetId: string, asset: AssetBytes[string], decodePng: PdfOptions['decodePng']): PdfImage {
  const b = asset.bytes;
  const refuse = (why: string) =>
    new RenderError('UNSUPPORTED_IMAGE', `image ${assetId} cannot go into a PDF: ${why}`);
  if (asset.type === 'image/jpeg') {
    for (let at = 2; at + 9 < b.length; ) {
      const marker = b[at + 1]!;
      if (b[at] !== 0xff) break;
      if (marker === 0xff) {
        at++; // a fill byte before a marker (ITU T.81 §B.1.1.2)
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const [height, width, comps] = [u16(b, at + 5), u16(b, at + 7), b[at + 9]!];
        const space =
          comps === 1 ? '/DeviceGray' : comps === 3 ? '/DeviceRGB' : '/DeviceCMYK /Decode [1 0 1 0 1 0 1 0]';
        return {
          dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${space} /BitsPerComponent 8 /Filter /DCTDecode`,
          data: b,
          width,
          height,
        };
      }
      at += 2 + u16(b, at + 2);
    }
    throw refuse('no JPEG frame header');
  }
  const [width, height, depth, colour, interlace] = [u32(b, 16), u32(b, 20), b[24]!, b[25]!, b[28]!];
  const parts: Uint8Array[] = [];
  let transparent = false; // a tRNS chunk gives grey or RGB images a transparent colour
  for (let at = 8; at + 8 <= b.length; ) {
    const length = u32(b, at);
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    if (type === 'IDAT') parts.push(b.subarray(at + 8, at + 8 + length));
    if (type === 'tRNS') transparent = true;
    at += 12 + length;
  }
  if (depth !== 8 || (colour !== 0 && colour !== 2) || interlace !== 0 || transparent) {
    if (!decodePng)
      throw refuse(
        'a PNG with transparency, a palette, 16 bits or interlacing needs decoding, and no decoder was given',
      );
    return decodedImage(decodePng(b));
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  const colors = colour === 2 ? 3 : 1;
  return {
    dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${colors === 3 ? 'DeviceRGB' : 'DeviceGray'} /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${colors} /BitsPerComponent 8 /Columns ${width} >>`,
    data,
    width,
    height,
  };
}

/** Decoded RGBA split into RGB samples and, when any pixel is not opaque, an alpha mask. */
function decodedImage({
  width,
  height,
  rgba,
}: {
  width: number;
  height: number;
  rgba: Uint8Array;
}): PdfImage {
  const rgb = new Uint8Array(width * height * 3);
  const alpha = new Uint8Array(width * height);
  let opaque = true;
  for (let p = 0; p < width * height; p++) {
    rgb[p * 3] = rgba[p * 4]!;
    rgb[p * 3 + 1] = rgba[p * 4 + 1]!;
    rgb[p * 3 + 2] = rgba[p * 4 + 2]!;
    alpha[p] = rgba[p * 4 + 3]!;
    if (alpha[p] !== 255) opaque = false;
  }
  const dict = `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8`;
  return { dict, data: rgb, width, height, raw: true, ...(opaque ? {} : { alpha }) };
}

const enc = new TextEncoder();
const f2 = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};
const f4 = (v: number) => {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
};

const f8 = (v: number) => v.toFixed(8).replace(/0+$/, '');

/**
 * A page's content stream, built as bytes: a document places a hundred thousand letters, and a
 * string for each placement (and the text encoder over them all) was a fifth of writing it.
 * Lines are separated by a newline. Everything written here is ASCII but the rare string that
 * is not, which goes through the encoder.
 */
class Content {
  private buf = new Uint8Array(1 << 16);
  private n = 0;

  private room(more: number): void {
    if (this.n + more <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.n + more));
    grown.set(this.buf.subarray(0, this.n));
    this.buf = grown;
  }

  /** Starts a line (the newline between it and the one before). */
  line(s = ''): this {
    if (this.n > 0) {
      this.room(1);
      this.buf[this.n++] = 0x0a;
    }
    return this.ascii(s);
  }

  ascii(s: string): this {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        const bytes = enc.encode(s.slice(i));
        this.room(bytes.length);
        this.buf.set(bytes, this.n);
        this.n += bytes.length;
        return this;
      }
      this.buf[this.n++] = c;
    }
    return this;
  }

  /** A byte as two hex digits. */
  hexByte(b: number): this {
    this.room(2);
    this.buf[this.n++] = HEX_DIGIT[b >> 4]!;
    this.buf[this.n++] = HEX_DIGIT[b & 15]!;
    return this;
  }

  /** One space. */
  space(): this {
    this.room(1);
    this.buf[this.n++] = 0x20;
    return this;
  }

  /** An integer, as String() writes it (no sign for zero). */
  int(v: number): this {
    if (v >= 2 ** 31 || v <= -(2 ** 31)) return this.ascii(String(v));
    this.room(12);
    this.n = this.digitsAt(this.n, v | 0);
    return this;
  }

  /**
   * A letter's placement: a line of its matrix in thousandths of its drawing's `k` and its
   * position in tenths of a point, each rounded to an integer, then the bytes that show the
   * drawing; with one check of the room (a number at a time, twice as long). The matrix and the
   * drawing come as they are, not as numbers: a number passed to a call V8 does not inline is
   * boxed, 8 MB of garbage a document.
   */
  placement(m: readonly number[], drawn: PlacedGlyph): this {
    const { k, code } = drawn;
    const a = m[0]! * k;
    const b = m[1]! * k;
    const c = m[2]! * k;
    const d = m[3]! * k;
    const e = m[4]! * 10;
    const f = m[5]! * 10;
    // Past 2^31 (no page has such numbers), a number at a time, as String() writes them.
    if (
      !(Math.max(Math.abs(a), Math.abs(b), Math.abs(c), Math.abs(d), Math.abs(e), Math.abs(f)) < 2 ** 31 - 1)
    ) {
      this.line();
      for (const v of [a, b, c, d, e]) this.int(Math.round(v)).space();
      return this.int(Math.round(f)).ascii(` Tm <${code.toString(16).padStart(4, '0')}> Tj`);
    }
    this.room(1 + 6 * 12 + SHOWN);
    const buf = this.buf;
    let n = this.n;
    if (n > 0) buf[n++] = 0x0a;
    n = this.digitsAt(n, round(a));
    buf[n++] = 0x20;
    n = this.digitsAt(n, round(b));
    buf[n++] = 0x20;
    n = this.digitsAt(n, round(c));
    buf[n++] = 0x20;
    n = this.digitsAt(n, round(d));
    buf[n++] = 0x20;
    n = this.digitsAt(n, round(e));
    buf[n++] = 0x20;
    n = this.digitsAt(n, round(f));
    // ` Tm <code> Tj`, written out (a copy of the bytes, byte by byte, took longer).
    buf[n++] = 0x20;
    buf[n++] = 0x54;
    buf[n++] = 0x6d;
    buf[n++] = 0x20;
    buf[n++] = 0x3c;
    buf[n++] = HEX_DIGIT[code >> 12]!;
    buf[n++] = HEX_DIGIT[(code >> 8) & 15]!;
    buf[n++] = HEX_DIGIT[(code >> 4) & 15]!;
    buf[n++] = HEX_DIGIT[code & 15]!;
    buf[n++] = 0x3e;
    buf[n++] = 0x20;
    buf[n++] = 0x54;
    buf[n++] = 0x6a;
    this.n = n;
    return this;
  }

  /**
   * An integer (|i| < 2^31) as int() writes it, at `n` of the buffer (room made); where it ends.
   * Its digits counted first and written from the last, in place.
   */
  private digitsAt(n: number, i: number): number {
    const buf = this.buf;
    if (i < 0) {
      buf[n++] = 0x2d;
      i = -i;
    }
    const end =
      n +
      (i < 10
        ? 1
        : i < 100
          ? 2
          : i < 1000
            ? 3
            : i < 10_000
              ? 4
              : i < 100_000
                ? 5
                : i < 1_000_000
                  ? 6
                  : i < 10_000_000
                    ? 7
                    : i < 100_000_000
                      ? 8
                      : i < 1_000_000_000
                        ? 9
                        : 10);
    let at = end;
    do {
      const q = (i / 10) | 0;
      buf[--at] = 0x30 + i - q * 10;
      i = q;
    } while (i > 0);
    return end;
  }

  /** What has been written, as a view of the buffer: good until the next write. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.n);
  }

  /** Empties it for the next page, keeping its buffer. */
  reset(): this {
    this.n = 0;
    return this;
  }
}

const rgbCache = new Map<string, string>();
function rgb(hex: string): string {
  let out = rgbCache.get(hex);
  if (out === undefined) {
    out = hexRgb(hex)
      .map((c) => f4(c / 255))
      .join(' ');
    if (rgbCache.size > 10_000) rgbCache.clear();
    rgbCache.set(hex, out);
  }
  return out;
}

function bbox(d: string): [number, number, number, number] {
  const nums = d
    .replace(/[MLQCZ]/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  if (nums.length < 2) return [0, 0, 0, 0];
  let [x0, y0, x1, y1] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (let i = 0; i + 1 < nums.length; i += 2) {
    x0 = Math.min(x0, nums[i]!);
    x1 = Math.max(x1, nums[i]!);
    y0 = Math.min(y0, nums[i + 1]!);
    y1 = Math.max(y1, nums[i + 1]!);
  }
  return [Math.floor(x0) - 1, Math.floor(y0) - 1, Math.ceil(x1) + 1, Math.ceil(y1) + 1];
}

/**
 * A glyph drawing as the font program takes it: its charstring and its box. Documents in one
 * hand write the same drawings (a hand's drawings are built once, whatever the seed), so a thread
 * keeps them: its next document does not encode them again.
 */
interface Drawn {
  cs: Uint8Array;
  box: [number, number, number, number];
}

/** Drawings by outline, kept per thread: documents reuse the same glyphs. */
const drawn = new Map<string, Drawn>();

function drawnOf(path: string): Drawn {
  let f = drawn.get(path);
  if (!f) {
    f = {
      cs: charString(path, GLYPH_UNIT),
      box: bbox(path).map((v) => Math.round(v / GLYPH_UNIT)) as Drawn['box'],
    };
    if (drawn.size >= KEPT_DRAWINGS) drawn.clear();
    drawn.set(path, f);
  }
  return f;
}

/** Font units a unit of the font programs' glyph space holds (cff.ts charString). */
const GLYPH_UNIT = 2;

/** Glyphs a font program of the document holds (two-byte codes; glyph 0 is the empty one). */
const GLYPHS_PER_FONT = 65_000;

class Writer {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;
  readonly offsets: number[] = [0];

  constructor(private readonly maxBytes: number) {}

  push(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    this.chunks.push(bytes);
    this.length += bytes.length;
    if (this.length > this.maxBytes)
      throw new RenderError('OUTPUT_TOO_LARGE', `the PDF passes ${this.maxBytes} bytes`);
  }

  get size(): number {
    return this.length;
  }

  object(n: number, body: string): void {
    this.offsets[n] = this.length;
    this.push(`${n} 0 obj\n${body}\nendobj\n`);
  }

  stream(n: number, dict: string, data: Uint8Array, deflate?: PdfOptions['deflate']): void {
    const body = deflate ? deflate(data) : data;
    this.offsets[n] = this.length;
    this.push(
      `${n} 0 obj\n<< ${dict}${deflate ? ' /Filter /FlateDecode' : ''} /Length ${body.length} >>\nstream\n`,
    );
    this.push(body);
    this.push('\nendstream\nendobj\n');
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

/** Each byte as two hex digits (the text layer writes a code a character). */
const HEX_DIGIT = new TextEncoder().encode('0123456789abcdef');

/** Maps the characters of the text layer to one-byte codes of Type 3 fonts (256 per font). */
class TextCodes {
  readonly fonts: string[][] = [];
  private readonly codes = new Map<string, [number, number]>();

  code(ch: string): [number, number] {
    let c = this.codes.get(ch);
    if (!c) {
      let font = this.fonts[this.fonts.length - 1];
      if (!font || font.length === 256) {
        font = [];
        this.fonts.push(font);
      }
      c = [this.fonts.length - 1, font.length];
      font.push(ch);
      this.codes.set(ch, c);
    }
    return c;
  }
}

/** A ToUnicode CMap (§9.10.3) giving code i the characters `chars[i]` (`bytes`-byte codes, from `first`). */
function toUnicode(chars: string[], bytes: 1 | 2 = 1, first = 0): string {
  const hexOf = (code: number) => `<${code.toString(16).padStart(2 * bytes, '0')}>`;
  const lines = chars.map((ch, i) => {
    let hex = '';
    for (let j = 0; j < ch.length; j++) hex += ch.charCodeAt(j).toString(16).padStart(4, '0');
    return `${hexOf(first + i)} <${hex}>`;
  });
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i += 100) {
    const part = lines.slice(i, i + 100);
    blocks.push(`${part.length} beginbfchar\n${part.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    `1 begincodespacerange ${hexOf(0)} ${hexOf(bytes === 1 ? 0xff : 0xffff)} endcodespacerange`,
    ...blocks,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
}

/** How a page shows a drawing: its font and size (`/Hn size Tf`), its matrix's scale, and its code in its font. */
interface PlacedGlyph {
  face: string;
  k: number;
  /** Its code in its font (1 to GLYPHS_PER_FONT), shown as ` Tm <code> Tj` with four hex digits. */
  code: number;
}

/** The bytes of ` Tm <code> Tj`. */
const SHOWN = 13;

/**
 * The drawings a document's pages show, each placed in a font program the first time a page
 * shows it (PlacedGlyph), in order of first use: font program n holds the n-th GLYPHS_PER_FONT.
 * One for the document, asked on every letter (an object made for each page, with a function of
 * its own, was a call the optimiser could not inline).
 */
class Placements {
  readonly refs: string[] = [];
  private readonly placed = new Map<string, PlacedGlyph>();
  /** The document's drawings as of the page being written (they grow with later pages). */
  glyphs: Record<string, GlyphDef> = {};

  get(ref: string): PlacedGlyph {
    const glyph = this.placed.get(ref);
    return glyph === undefined ? this.place(ref) : glyph;
  }

  private place(ref: string): PlacedGlyph {
    const i = this.refs.push(ref) - 1;
    const scale = this.glyphs[ref]!.scale;
    // Glyph space is a thousandth of the size, the group a tenth of a point, a unit of glyph
    // space GLYPH_UNIT font units: size 10 × GLYPH_UNIT × scale.
    const glyph = {
      face: `/H${Math.floor(i / GLYPHS_PER_FONT)} ${f8(scale * 10 * GLYPH_UNIT)} Tf`,
      k: 1000 / scale,
      code: (i % GLYPHS_PER_FONT) + 1,
    };
    this.placed.set(ref, glyph);
    return glyph;
  }
}

/** The page's content stream, written into `c` (a view of its buffer: good until `c` writes again). */
function pageContent(
  c: Content,
  page: DisplayPage,
  glyphs: Placements,
  gs: { get(opacity: number): string },
  codes: TextCodes,
  images: Map<string, PdfImage & { name: string }>,
): Uint8Array {
  c.reset();
  const { width: W, height: H } = page;
  c.line(`${rgb(page.background)} rg 0 0 ${f2(W)} ${f2(H)} re f`);
  c.line(`q 1 0 0 -1 0 ${f2(H)} cm`); // from here on, y runs down as in the display list
  if (page.sheet.tilt) {
    const a = (page.sheet.tilt * Math.PI) / 180;
    const [cos, sin] = [Math.cos(a), Math.sin(a)];
    const [cx, cy] = [W / 2, H / 2];
    c.line(
      `${f4(cos)} ${f4(sin)} ${f4(-sin)} ${f4(cos)} ${f2(cx - cos * cx + sin * cy)} ${f2(cy - sin * cx - cos * cy)} cm`,
    );
  }
  // The letters go in text objects scaled to tenths of a point, one per run of letters between
  // other items; inside one, the ink's colour and opacity are set only where they change (the
  // ink drifts from letter to letter, so that is often, and a group per change cost a fifth of
  // the page's bytes), and the font and its size where the drawing's font or scale changes.
  let open = false;
  let fill = '';
  let alpha = 100;
  let face = '';
  const endInk = () => {
    if (open) c.line('ET EMC Q');
    open = false;
  };
  const inkOf = letterInk(page);
  for (const it of page.items as Item[]) {
    if (it.kind === 'glyph') {
      const { color, opacity } = inkOf(it);
      if (!open) {
        // Glyph positions in tenths of a point; the drawings are no text of their own.
        c.line('q 0.1 0 0 0.1 0 0 cm /Span << /ActualText () >> BDC BT');
        open = true;
        fill = '';
        alpha = 100;
        face = '';
      }
      const o = round(opacity * 100);
      if (color !== fill || o !== alpha) {
        c.line();
        if (color !== fill) c.ascii(rgb(color)).ascii(o !== alpha ? ' rg ' : ' rg');
        if (o !== alpha) c.ascii('/').ascii(gs.get(o)).ascii(' gs');
        fill = color;
        alpha = o;
      }
      const glyph = glyphs.get(it.ref);
      if (glyph.face !== face) {
        c.line(glyph.face);
        face = glyph.face;
      }
      // The font size carries the drawing's scale, so what is left is a near-identity matrix in
      // thousandths and a position in tenths of a point: small integers, quick to write and
      // compact once deflated.
      const m = it.m;
      c.placement(m, glyph);
      continue;
    }
    endInk();
    if (it.kind === 'image') {
      // Covers its box, centred and clipped, like the SVG's preserveAspectRatio slice.
      const img = images.get(it.assetId)!;
      const scale = Math.max(it.width / img.width, it.height / img.height);
      const [w, h] = [img.width * scale, img.height * scale];
      const [x, y] = [it.x + (it.width - w) / 2, it.y + (it.height - h) / 2];
      c.line(
        `q ${f2(it.x)} ${f2(it.y)} ${f2(it.width)} ${f2(it.height)} re W n ${f4(w)} 0 0 ${f4(-h)} ${f2(x)} ${f2(y + h)} cm /${img.name} Do Q`,
      );
    } else if (it.kind === 'rule') {
      c.line(
        `${rgb(it.color)} RG ${f2(it.width)} w ${f2(it.x1)} ${f2(it.y1)} m ${f2(it.x2)} ${f2(it.y2)} l S`,
      );
    } else if (it.kind === 'stroke') {
      const p = it.points;
      let path = `${f2(p[0]!)} ${f2(p[1]!)} m`;
      for (let i = 2; i < p.length; i += 2) path += ` ${f2(p[i]!)} ${f2(p[i + 1]!)} l`;
      const alpha = it.opacity < 1 ? ` /${gs.get(Math.round(it.opacity * 100))} gs` : '';
      c.line(`q ${rgb(it.color)} RG${alpha} ${f2(it.width)} w 1 J 1 j ${path} S Q`);
    } else if (it.kind === 'dot') {
      const k = it.r * 0.5523;
      const [x, y, r] = [it.x, it.y, it.r];
      c.line(
        `${rgb(it.color)} rg ${f2(x + r)} ${f2(y)} m ${f2(x + r)} ${f2(y + k)} ${f2(x + k)} ${f2(y + r)} ${f2(x)} ${f2(y + r)} c ` +
          `${f2(x - k)} ${f2(y + r)} ${f2(x - r)} ${f2(y + k)} ${f2(x - r)} ${f2(y)} c ${f2(x - r)} ${f2(y - k)} ${f2(x - k)} ${f2(y - r)} ${f2(x)} ${f2(y - r)} c ` +
          `${f2(x + k)} ${f2(y - r)} ${f2(x + r)} ${f2(y - k)} ${f2(x + r)} ${f2(y)} c f`,
      );
    }
  }
  endInk();
  c.line('Q');
  // The invisible text layer, in unflipped page space: one line of codes stretched to its width,
  // in visual order (extractors put right-to-left runs back in logical order). The codes go
  // straight into the content, two hex digits each (a string grown by each was garbage a letter).
  for (const line of page.lines) {
    let count = 0;
    for (const _ of line.visual) count++;
    if (count === 0) continue;
    const scale = (line.width / (count * line.size * 0.5)) * 100;
    c.line(`BT 3 Tr ${f2(Math.max(1, scale))} Tz`);
    c.line(`1 0 0 1 ${f2(line.x)} ${f2(H - line.y)} Tm`);
    let font = -1;
    for (const ch of line.visual) {
      const [fi, code] = codes.code(ch);
      if (fi !== font) {
        if (font >= 0) c.ascii('> Tj');
        c.line(`/T${fi} ${f2(line.size)} Tf`).line('<');
        font = fi;
      }
      c.hexByte(code);
    }
    c.ascii('> Tj').line('ET');
  }
  return c.view();
}

export function displayListToPdf(list: DisplayList, opts: PdfOptions = {}): Uint8Array {
  const pdf = new PdfDocument(opts);
  for (const page of list.pages) pdf.add(page, list.glyphs);
  return pdf.finish(list.glyphs);
}

/**
 * A PDF written a page at a time, as the layout hands the pages over: each page's content is
 * written (compressed) when it is added, and the page's display list can go. The drawings are
 * numbered as they first appear and their font programs written at the end, with the text
 * layer's fonts, the resources and the page tree (objects 1-4 are the catalog, the page tree,
 * the information and the resources every page shares).
 */
export class PdfDocument {
  private readonly w: Writer;
  private next = 5;
  private readonly pageObjs: number[] = [];
  private readonly placements = new Placements();
  private readonly opacities = new Set<number>();
  private readonly codes = new TextCodes();
  private readonly images = new Map<string, PdfImage & { name: string }>();
  private readonly xobjects: string[] = [];
  private readonly content = new Content();

  constructor(private readonly opts: PdfOptions = {}) {
    this.w = new Writer(opts.maxBytes ?? 55_000_000);
    this.w.push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  }

  get pages(): number {
    return this.pageObjs.length;
  }

  /** Writes `page`; `glyphs` holds every drawing it shows (it may grow with later pages). */
  add(page: DisplayPage, glyphs: Record<string, GlyphDef>): void {
    const w = this.w;
    const opts = this.opts;
    for (const it of page.items) {
      if (it.kind !== 'image' || this.images.has(it.assetId)) continue;
      const asset = opts.assets?.[it.assetId];
      if (!asset)
        throw new RenderError('MISSING_ASSET', `image ${it.assetId} was not supplied to the writer`);
      const img = { ...pdfImage(it.assetId, asset, opts.decodePng), name: `Im${this.images.size}` };
      this.images.set(it.assetId, img);
      const obj = this.next++;
      const mask = img.alpha ? this.next++ : 0;
      this.xobjects.push(`/${img.name} ${obj} 0 R`);
      w.stream(
        obj,
        `${img.dict}${mask ? ` /SMask ${mask} 0 R` : ''}`,
        img.data,
        img.raw ? opts.deflate : undefined,
      );
      if (mask)
        w.stream(
          mask,
          `/Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /DeviceGray /BitsPerComponent 8`,
          img.alpha!,
          opts.deflate,
        );
    }
    this.placements.glyphs = glyphs;
    const states = {
      get: (opacity: number): string => {
        this.opacities.add(opacity);
        return `A${opacity}`;
      },
    };
    // One buffer for every page's content: a page's was 64 KiB outside V8's heap, which V8
    // counts towards its next collection.
    const content = pageContent(this.content, page, this.placements, states, this.codes, this.images);
    const o = { page: this.next++, content: this.next++ };
    this.pageObjs.push(o.page);
    w.object(
      o.page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${f2(page.width)} ${f2(page.height)}] /Resources 4 0 R /Contents ${o.content} 0 R >>`,
    );
    w.stream(o.content, '', opts.deflate ? content : content.slice(), opts.deflate);
  }

  /** The drawings' and the text layer's fonts, the shared objects and the cross-reference table. */
  finish(glyphs: Record<string, GlyphDef>): Uint8Array {
    const w = this.w;
    const opts = this.opts;
    const faces: string[][] = [];
    for (let i = 0; i < this.placements.refs.length; i += GLYPHS_PER_FONT)
      faces.push(this.placements.refs.slice(i, i + GLYPHS_PER_FONT));
    const faceObjs = faces.map(() => ({
      type0: this.next++,
      cid: this.next++,
      descriptor: this.next++,
      file: this.next++,
      cmap: this.next++,
    }));
    const fontObjs = this.codes.fonts.map(() => ({
      font: this.next++,
      cmap: this.next++,
      proc: this.next++,
    }));
    faces.forEach((face, fi) => {
      const o = faceObjs[fi]!;
      const box: [number, number, number, number] = [0, 0, 0, 0];
      const charStrings = face.map((r) => {
        const d = drawnOf(glyphs[r]!.path);
        for (let j = 0; j < 4; j++)
          box[j] = j < 2 ? Math.min(box[j]!, d.box[j]!) : Math.max(box[j]!, d.box[j]!);
        return d.cs;
      });
      // A subset's name: six capitals, a plus, the font's (§9.6.4); the capitals from the glyphs,
      // so that two documents' different drawings (merged into one file) never share a name.
      const program = cidFont('ScriptoriumHand', charStrings, box);
      let tag = '';
      for (let h = crc32(program), i = 0; i < 6; i++, h = Math.floor(h / 26))
        tag += String.fromCharCode(65 + (h % 26));
      const name = `${tag}+ScriptoriumHand`;
      w.object(
        o.type0,
        `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${o.cid} 0 R] /ToUnicode ${o.cmap} 0 R >>`,
      );
      // Every drawing reads as a space: an extractor that does not honour the empty /ActualText
      // (MuPDF) gives blank space, not a replacement character a glyph, beside the text layer.
      w.stream(
        o.cmap,
        '',
        enc.encode(
          toUnicode(
            face.map(() => ' '),
            2,
            1,
          ),
        ),
        opts.deflate,
      );
      w.object(
        o.cid,
        `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${o.descriptor} 0 R /DW 0 >>`,
      );
      w.object(
        o.descriptor,
        `<< /Type /FontDescriptor /FontName /${name} /Flags 4 /FontBBox [${box.join(' ')}] /ItalicAngle 0 /Ascent ${box[3]} /Descent ${box[1]} /CapHeight ${box[3]} /StemV 80 /FontFile3 ${o.file} 0 R >>`,
      );
      w.stream(o.file, '/Subtype /CIDFontType0C', program, opts.deflate);
    });
    this.codes.fonts.forEach((chars, i) => {
      const o = fontObjs[i]!;
      const widths = chars.map(() => 500).join(' ');
      const names = chars.map((_, c) => `/c${c}`).join(' ');
      w.object(
        o.font,
        `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 0 0] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << ${chars.map((_, c) => `/c${c} ${o.proc} 0 R`).join(' ')} >> ` +
          `/Encoding << /Type /Encoding /Differences [0 ${names}] >> /FirstChar 0 /LastChar ${chars.length - 1} /Widths [${widths}] /ToUnicode ${o.cmap} 0 R /Resources << >> >>`,
      );
      w.stream(o.cmap, '', enc.encode(toUnicode(chars)), opts.deflate);
      w.stream(o.proc, '', enc.encode('500 0 d0'), undefined);
    });

    w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
    w.object(
      2,
      `<< /Type /Pages /Kids [${this.pageObjs.map((p) => `${p} 0 R`).join(' ')}] /Count ${this.pageObjs.length} >>`,
    );
    const date = `D:${(opts.createdAt ?? '2000-01-01T00:00:00Z').replace(/[-:T]/g, '').slice(0, 14)}Z`;
    w.object(
      3,
      `<< /Producer (Scriptorium) /Creator (Scriptorium) /Title ${pdfString(opts.title ?? 'Handwritten document')} /CreationDate (${date}) /ModDate (${date}) >>`,
    );
    const fonts = [
      ...faceObjs.map((f, i) => `/H${i} ${f.type0} 0 R`),
      ...fontObjs.map((f, i) => `/T${i} ${f.font} 0 R`),
    ].join(' ');
    const states = [...this.opacities]
      .sort((a, b) => a - b)
      .map((o) => `/A${o} << /ca ${f2(o / 100)} /CA ${f2(o / 100)} >>`)
      .join(' ');
    w.object(
      4,
      `<< /XObject << ${this.xobjects.join(' ')} >> /Font << ${fonts} >> /ExtGState << ${states} >> /ProcSet [/PDF /Text] >>`,
    );

    const xref = w.size;
    const lines = ['xref', `0 ${this.next}`, '0000000000 65535 f '];
    for (let n = 1; n < this.next; n++) lines.push(`${String(w.offsets[n] ?? 0).padStart(10, '0')} 00000 n `);
    w.push(
      `${lines.join('\n')}\ntrailer\n<< /Size ${this.next} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    );
    return w.bytes();
  }
}
