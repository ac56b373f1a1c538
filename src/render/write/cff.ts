// A document's letter drawings as one compact font program: a CID-keyed CFF (Adobe Technical
// Note #5176) whose glyph 1, 2, … are the drawings, each a Type 2 charstring (Note #5177) of
// relative moves, lines and curves in whole font units, one to two bytes a number. The same
// outlines written as PDF path operators in a form each cost three to four times the bytes
// (digits, spaces and a stream object per drawing). Pure.

/** A Type 2 charstring number (Note #5177, Table 3): integers, one to three bytes. */
function csNumber(out: number[], v: number): void {
  if (v >= -107 && v <= 107) out.push(v + 139);
  else if (v >= 108 && v <= 1131) out.push(((v - 108) >> 8) + 247, (v - 108) & 0xff);
  else if (v <= -108 && v >= -1131) out.push(((-v - 108) >> 8) + 251, (-v - 108) & 0xff);
  else {
    const s = Math.max(-32768, Math.min(32767, v)) & 0xffff;
    out.push(28, s >> 8, s & 0xff);
  }
}

const RMOVETO = 21;
const RLINETO = 5;
const RRCURVETO = 8;
const ENDCHAR = 14;
/** Operands a charstring's stack holds (Note #5177, Appendix B): 8 curves or 24 lines an operator. */
const MOST_ARGS = 48;

/**
 * SVG path data (absolute M, L, Q, C, Z in font units, y up, as the hand writes it) as a Type 2
 * charstring in units of `unit` font units (the font's size makes up for it). A quadratic
 * becomes the cubic through the same points. Every point is rounded to a whole unit: one unit of
 * two font units is a thousandth of an em, far below what any page shows, and it keeps most
 * steps between points within the one-byte numbers. A contour closes itself at the next move
 * or the end (Type 2 has no closepath).
 */
export function charString(d: string, unit = 1): Uint8Array {
  const out: number[] = [];
  const re = /([MLQCZ])([^MLQCZ]*)/g;
  let [cx, cy] = [0, 0];
  let op = 0;
  let args: number[] = [];
  const flush = () => {
    if (op === 0) return;
    for (const a of args) csNumber(out, a);
    out.push(op);
    [op, args] = [0, []];
  };
  const emit = (o: number, values: number[]) => {
    if (op !== o || o === RMOVETO || args.length + values.length > MOST_ARGS) flush();
    op = o;
    args.push(...values);
  };
  /** Relative steps through the points (absolute, rounded), moving the current point along. */
  const steps = (pts: number[]) => {
    const rel: number[] = [];
    for (let i = 0; i < pts.length; i += 2) {
      const [x, y] = [Math.round(pts[i]! / unit), Math.round(pts[i + 1]! / unit)];
      rel.push(x - cx, y - cy);
      [cx, cy] = [x, y];
    }
    return rel;
  };
  for (let m = re.exec(d); m; m = re.exec(d)) {
    const body = m[2]!.trim();
    const v = body ? body.split(/[\s,]+/).map(Number) : [];
    switch (m[1]) {
      case 'M':
        emit(RMOVETO, steps(v));
        break;
      case 'L':
        emit(RLINETO, steps(v));
        break;
      case 'Q': {
        const [qx, qy, x, y] = v as [number, number, number, number];
        // From the current point, which is in units.
        const third = (a: number, b: number) => a + (2 / 3) * (b - a);
        const [ux, uy] = [cx * unit, cy * unit];
        emit(RRCURVETO, steps([third(ux, qx), third(uy, qy), third(x, qx), third(y, qy), x, y]));
        break;
      }
      case 'C':
        emit(RRCURVETO, steps(v));
        break;
      // Z: the next move (or the end) closes the contour; the current point stays where it is.
    }
  }
  flush();
  out.push(ENDCHAR);
  return Uint8Array.from(out);
}

/** A DICT number (Note #5176, Table 3); `wide` always takes five bytes (an offset known later). */
function dictNumber(out: number[], v: number, wide = false): void {
  if (!wide && v >= -107 && v <= 107) out.push(v + 139);
  else if (!wide && v >= 108 && v <= 1131) out.push(((v - 108) >> 8) + 247, (v - 108) & 0xff);
  else if (!wide && v <= -108 && v >= -1131) out.push(((-v - 108) >> 8) + 251, (-v - 108) & 0xff);
  else out.push(29, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

/** An INDEX (Note #5176, §5): a count, offsets one-based, then the data. */
function index(items: readonly Uint8Array[]): Uint8Array[] {
  if (items.length === 0) return [Uint8Array.of(0, 0)];
  let total = 1;
  for (const it of items) total += it.length;
  const size = total < 0x100 ? 1 : total < 0x10000 ? 2 : total < 0x1000000 ? 3 : 4;
  const head = new Uint8Array(3 + (items.length + 1) * size);
  head[0] = items.length >> 8;
  head[1] = items.length & 0xff;
  head[2] = size;
  let at = 3;
  let offset = 1;
  const put = (v: number) => {
    for (let b = size - 1; b >= 0; b--) head[at++] = (v >>> (8 * b)) & 0xff;
  };
  put(offset);
  for (const it of items) {
    offset += it.length;
    put(offset);
  }
  return [head, ...items];
}

const sizeOf = (parts: readonly Uint8Array[]) => parts.reduce((n, p) => n + p.length, 0);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * A CID-keyed CFF font program named `name` (Adobe-Identity-0) whose glyph 0 is empty and glyph
 * i + 1 is `glyphs[i]`, with CID = glyph id: a PDF shows glyph i + 1 with the two-byte code i + 1
 * through /Identity-H. `bbox` is the glyphs' box in font units.
 */
export function cidFont(
  name: string,
  glyphs: readonly Uint8Array[],
  bbox: readonly [number, number, number, number],
): Uint8Array {
  const count = glyphs.length + 1;
  const header = Uint8Array.of(1, 0, 4, 4);
  const names = index([ascii(name)]);
  const strings = index([ascii('Adobe'), ascii('Identity')]);
  const globalSubrs = index([]);
  // charset: CIDs 1 … count-1 for glyphs 1 … count-1 (format 2, one range).
  const charset = count > 1 ? Uint8Array.of(2, 0, 1, (count - 2) >> 8, (count - 2) & 0xff) : Uint8Array.of(0);
  // FDSelect: every glyph in font DICT 0 (format 3, one range).
  const fdSelect = Uint8Array.of(3, 0, 1, 0, 0, 0, count >> 8, count & 0xff);
  const charStrings = index([Uint8Array.of(ENDCHAR), ...glyphs]);
  const priv = Uint8Array.of(139, 20); // defaultWidthX 0: no charstring carries a width

  const topDict = (o: { charset: number; fdSelect: number; charStrings: number; fdArray: number }) => {
    const d: number[] = [];
    dictNumber(d, 391); // "Adobe", the first string after the 391 standard ones
    dictNumber(d, 392); // "Identity"
    dictNumber(d, 0);
    d.push(12, 30); // ROS
    dictNumber(d, count);
    d.push(12, 34); // CIDCount
    for (const v of bbox) dictNumber(d, Math.round(v));
    d.push(5); // FontBBox
    dictNumber(d, o.charset, true);
    d.push(15);
    dictNumber(d, o.charStrings, true);
    d.push(17);
    dictNumber(d, o.fdArray, true);
    d.push(12, 36);
    dictNumber(d, o.fdSelect, true);
    d.push(12, 37);
    return Uint8Array.from(d);
  };
  const fontDict = (privateAt: number) => {
    const d: number[] = [];
    dictNumber(d, priv.length, true);
    dictNumber(d, privateAt, true);
    d.push(18); // Private: size, offset
    return Uint8Array.from(d);
  };
  // Every offset is written in five bytes, so the sizes are known before the offsets are.
  const topSize = sizeOf(index([topDict({ charset: 0, fdSelect: 0, charStrings: 0, fdArray: 0 })]));
  const fdArraySize = sizeOf(index([fontDict(0)]));
  let at = header.length + sizeOf(names) + topSize + sizeOf(strings) + sizeOf(globalSubrs);
  const charsetAt = at;
  at += charset.length;
  const fdSelectAt = at;
  at += fdSelect.length;
  const charStringsAt = at;
  at += sizeOf(charStrings);
  const fdArrayAt = at;
  at += fdArraySize;
  const privateAt = at;
  const parts = [
    header,
    ...names,
    ...index([
      topDict({ charset: charsetAt, fdSelect: fdSelectAt, charStrings: charStringsAt, fdArray: fdArrayAt }),
    ]),
    ...strings,
    ...globalSubrs,
    charset,
    fdSelect,
    ...charStrings,
    ...index([fontDict(privateAt)]),
    priv,
  ];
  const out = new Uint8Array(sizeOf(parts));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
