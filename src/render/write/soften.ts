// What ink, paper and a scanner do to an image of a page, in its pixels: ink lying thicker where
// the pen laid more of it, a pen running dry leaving the paper's tooth bare, ink soaking a little
// into the paper around its strokes (their own edges stay sharp), and a flatbed scan's slight blur
// and sensor noise. Done on the raster (a blur filter in the SVG costs resvg several times as
// much); pure, the noise seeded by the sheet.
import { Random } from '../prng.ts';
import type { Spans } from './png-encode.ts';

/** Pixel size the effects are tuned for: at other resolutions they keep their size on the page. */
const BASE_DPI = 144;

/**
 * Blurs opaque RGBA pixels in place with the 3-tap kernel [w, 1 - 2w, w] (w ≤ 0.25), across and
 * then down, `passes` times, with integer weights out of 256. Two channels at a time in one
 * 32-bit word (red and blue, green and alpha: each sum stays under 2^16 in its half), and both
 * passes run along the rows, in memory order.
 * `darken`: a pixel takes the blurred colour only where it is darker (by the sum of its channels),
 * so ink spreads into the paper and keeps its own edge. `spans`: only these stretches of each row
 * (columns from and to, row y's in `of[rows[y]…rows[y + 1]]`); the whole page without.
 */
function blur(
  rgba: Uint8Array,
  width: number,
  height: number,
  w: number,
  passes: number,
  darken = false,
  spans?: Spans,
): void {
  const side = Math.round(w * 256);
  if (side <= 0) return;
  const mid = 256 - 2 * side;
  const aligned = rgba.byteOffset % 4 === 0;
  // Signed words (a word past 2^31 would be a double), and a copy where the pixels are not aligned
  // (a Buffer's slice would be a view).
  const px = aligned
    ? new Int32Array(rgba.buffer, rgba.byteOffset, width * height)
    : new Int32Array(new Uint8Array(rgba).buffer, 0, width * height);
  const of = spans ? spans.of : new Int32Array([0, width]);
  const rows = spans ? spans.rows : new Int32Array(height + 1).map((_, y) => 2 * y);
  const one = spans ? 1 : 0; // the whole page: every row's stretch is of[0…1]
  // Down the page each pixel reads the one above as it was before this pass: the row above's
  // old value where this pass went over that row in this column (`saved`, for the row `savedAt`).
  const saved = new Int32Array(width);
  const savedAt = new Int32Array(width);
  // Every pixel's blurred colour is worked out and chosen by a mask (ifDarker()), with no branch:
  // whether a pixel near ink darkens is as good as random, and a mispredicted branch per pixel
  // cost the bleed 40 % more time. A pixel between two of its own colour blurs to itself.
  const always = darken ? 0 : -1;
  for (let pass = 0; pass < passes; pass++) {
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const last = row + width - 1;
      for (let k = rows[y]!, to = rows[y + 1]!; k < to; k += 2) {
        const x0 = of[k * one]!;
        const x1 = of[k * one + 1]!;
        let prev = px[row + (x0 > 0 ? x0 - 1 : 0)]!;
        let cur = px[row + x0]!;
        for (let i = row + x0, end = row + x1; i < end; i++) {
          const next = i < last ? px[i + 1]! : cur;
          px[i] = ifDarker(cur, mixed(side, mid, prev, cur, next), always);
          prev = cur;
          cur = next;
        }
      }
    }
    savedAt.fill(-2);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const up = y === 0 ? 0 : width; // the first row's pixel above is itself, as the last row's below
      const down = y + 1 === height ? 0 : width;
      for (let k = rows[y]!, to = rows[y + 1]!; k < to; k += 2)
        for (let x = of[k * one]!, end = of[k * one + 1]!; x < end; x++) {
          const c = px[row + x]!;
          const a = up === 0 ? c : savedAt[x] === y - 1 ? saved[x]! : px[row - up + x]!;
          const b = px[row + down + x]!;
          saved[x] = c;
          savedAt[x] = y;
          px[row + x] = ifDarker(c, mixed(side, mid, a, c, b), always);
        }
    }
  }
  if (!aligned) rgba.set(new Uint8Array(px.buffer, 0, rgba.length));
}

const M = 0x00ff00ff;

/**
 * Pixel `c` between `a` and `b` blurred with the weights (side, mid, side) out of 256, two
 * channels at a time in a 32-bit word: each half-word's sum stays under 2^16, so the word's under
 * 2^32, multiplied and added in 32-bit integers (wrapping as unsigned), never as doubles.
 */
function mixed(side: number, mid: number, a: number, c: number, b: number): number {
  return (
    ((((Math.imul(side, (a & M) + (b & M)) + Math.imul(mid, c & M) + 0x00800080) | 0) >>> 8) & M) |
    (((Math.imul(side, ((a >>> 8) & M) + ((b >>> 8) & M)) + Math.imul(mid, (c >>> 8) & M) + 0x00800080) | 0) &
      ~M)
  );
}

/**
 * `m` where it is darker than `c` by the sum of their channels (a mask of the difference's sign),
 * or always (`always` -1); else `c`.
 */
function ifDarker(c: number, m: number, always: number): number {
  const darker =
    ((m & 0xff) +
      ((m >>> 8) & 0xff) +
      ((m >>> 16) & 0xff) -
      ((c & 0xff) + ((c >>> 8) & 0xff) + ((c >>> 16) & 0xff))) >>
    31;
  return c ^ ((c ^ m) & (darker | always));
}

/**
 * Ink soaking into the paper (`amount` 0-1): a faint halo spreads from every stroke into the
 * paper around it, while the ink keeps its own edge (a blur that only darkens), so wet ink on
 * paper never looks out of focus.
 */
export function bleedInk(rgba: Uint8Array, width: number, height: number, dpi: number, amount: number): void {
  if (amount <= 0) return;
  const passes = Math.max(1, Math.round(dpi / BASE_DPI));
  const w = (0.1 + 0.15 * amount) * Math.min(1, dpi / BASE_DPI);
  blur(rgba, width, height, w, passes, true);
}

/**
 * Ink lying thicker where more of it was laid down (`ink.pool` 0-1, the ink's pressure): a pool
 * where a stroke starts or stops, a turn, a crossing darker; a thin fast stroke lighter. How
 * thick the ink is at a pixel: the less of the ink across its run of the row and down its run of
 * the column (a stroke's width, whichever way it runs; more where strokes meet or pool), against
 * the page's median. A stroke takes one tone across its width, so its edges stay sharp; paper, faint rules
 * and the edges' anti-aliasing hardly move. And a pen running dry (`ink.dry`): paler ink leaves
 * the paper's tooth bare inside its strokes. For opaque pixels of a sheet of colour `paper` with
 * no image on it. Returns the stretches of each row outside which every pixel is still the bare
 * paper (or nothing, when there was nothing to do and it did not look).
 */
export function inkOnPaper(
  rgba: Uint8Array,
  width: number,
  height: number,
  paper: readonly [number, number, number],
  ink: { pool: number; dry: number; bleed: number; dpi: number; seed: number; full: number },
  drawn?: Extents,
): Spans | undefined {
  if (ink.pool <= 0 && ink.dry <= 0 && ink.bleed <= 0) return undefined;
  const page = measured(rgba, width, height, paper, Math.max(1, ink.full), drawn);
  if (page.rows[height] === 0) return { of: new Int32Array(0), rows: new Int32Array(height + 1) };
  // The tone inside a stroke shows where strokes are a few pixels wide (large writing, a fine
  // resolution); under that the pen's pools and thin runs are in the outlines alone.
  if ((ink.pool > 0 || ink.dry > 0) && page.stroke >= TONE_FROM_PX && darkness(page) > 0) {
    const { thick, usual } = runs(page);
    tone(page, thick, { ...ink, usual });
  }
  if (ink.bleed <= 0) return near(page, 0);
  // The bleed (bleedInk) where it can change anything: near the ink.
  const passes = Math.max(1, Math.round(ink.dpi / BASE_DPI));
  const w = (0.1 + 0.15 * ink.bleed) * Math.min(1, ink.dpi / BASE_DPI);
  const spans = near(page, passes);
  blur(rgba, width, height, w, passes, true, spans);
  return spans;
}

/**
 * Where on each row the writing may have left the paper, as the drawing knew it: row y's
 * pixels from `from[y]` up to `to[y]` (none where from ≥ to); outside them the row is bare.
 */
export interface Extents {
  from: Int32Array;
  to: Int32Array;
}

/**
 * The stretches of each row within `reach` pixels of ink (across and down), merged where they
 * meet: each row's runs widened by `reach` and merged, then each row's with those of the rows up
 * to `reach` above and below, two lists at a time (sorted lists merge in one sweep each).
 */
function near({ segments, rows, width, height }: InkPage, reach: number): Spans {
  // Each row's runs widened, as columns (from, to): row y's are `wide[at[y]…at[y + 1]]`.
  let wide = keptWide;
  const at = new Int32Array(height + 1);
  let n = 0;
  for (let y = 0; y < height; y++) {
    at[y] = n;
    const row = y * width;
    let open = -1;
    let close = -1;
    for (let k = rows[y]!, to = rows[y + 1]!; k < to; k += 2) {
      const a = segments[k]! - row - reach;
      const b = segments[k + 1]! - row + reach;
      const x0 = a > 0 ? a : 0;
      const x1 = b < width ? b : width;
      if (open >= 0 && x0 <= close) {
        if (x1 > close) close = x1;
        continue;
      }
      if (open >= 0) {
        if (n + 2 > wide.length) wide = grown(wide);
        wide[n++] = open;
        wide[n++] = close;
      }
      open = x0;
      close = x1;
    }
    if (open >= 0) {
      if (n + 2 > wide.length) wide = grown(wide);
      wide[n++] = open;
      wide[n++] = close;
    }
  }
  at[height] = n;
  keptWide = wide;
  let of: Int32Array = keptNear;
  let count = 0;
  const starts = new Int32Array(height + 1);
  for (let y = 0; y < height; y++) {
    starts[y] = count;
    const top = y - reach > 0 ? y - reach : 0;
    const bottom = y + reach < height - 1 ? y + reach : height - 1;
    // The rows' lists merged one into the next (in the two scratch lists in turn), the last
    // merge written out.
    let [from, to] = [at[top]!, at[top + 1]!];
    let list: Int32Array = wide;
    for (let r = top + 1; r <= bottom; r++) {
      const last = r === bottom;
      const room = to - from + at[r + 1]! - at[r]!;
      let out: Int32Array;
      let o: number;
      if (last) {
        while (count + room > of.length) of = grown(of);
        out = of;
        o = count;
      } else {
        if (list === scratchA) {
          if (scratchB.length < room) scratchB = new Int32Array(2 * room);
          out = scratchB;
        } else {
          if (scratchA.length < room) scratchA = new Int32Array(2 * room);
          out = scratchA;
        }
        o = 0;
      }
      const start = o;
      let i = from;
      let j = at[r]!;
      const jEnd = at[r + 1]!;
      let open = -1;
      let close = -1;
      while (i < to || j < jEnd) {
        let x0: number;
        let x1: number;
        if (j >= jEnd || (i < to && list[i]! <= wide[j]!)) {
          x0 = list[i]!;
          x1 = list[i + 1]!;
          i += 2;
        } else {
          x0 = wide[j]!;
          x1 = wide[j + 1]!;
          j += 2;
        }
        if (open >= 0 && x0 <= close) {
          if (x1 > close) close = x1;
          continue;
        }
        if (open >= 0) {
          out[o++] = open;
          out[o++] = close;
        }
        open = x0;
        close = x1;
      }
      if (open >= 0) {
        out[o++] = open;
        out[o++] = close;
      }
      if (last) count = o;
      else [list, from, to] = [out, start, o];
    }
    if (top === bottom) {
      // One row (a page one pixel high, or no reach): its own list.
      const k = to - from;
      while (count + k > of.length) of = grown(of);
      of.set(wide.subarray(from, to), count);
      count += k;
    }
  }
  starts[height] = count;
  keptNear = of;
  return { of, rows: starts };
}
let keptWide: Int32Array = new Int32Array(8192);
let scratchA: Int32Array = new Int32Array(1024);
let scratchB: Int32Array = new Int32Array(1024);
let keptNear: Int32Array = new Int32Array(8192);

interface InkPage {
  rgba: Uint8Array;
  width: number;
  height: number;
  paper: readonly [number, number, number];
  /**
   * How far each pixel is from the paper (1-255: the mean of its channels' darkening; 0 bare
   * paper), where the tone needs it (darkness()).
   */
  dark: Uint8Array;
  /**
   * Where the ink lies: runs of pixels off the paper (ink, its faintest edges, a rule), as start
   * and end (exclusive) pixel indices,
   * row by row; row y's runs are `segments[rows[y]…rows[y + 1]]`. Every later pass reads these
   * alone, not the bare paper around them.
   */
  segments: Int32Array;
  rows: Int32Array;
  /**
   * How wide the ink lies along the rows (pixels, to an eighth): the first quartile of the runs'
   * ink across (the ends counted for the part of them inked), about a thin stroke's width.
   */
  stroke: number;
  /** The darkness of the writing's own colour: the ink at its fullest. */
  full: number;
}

/** The runs of pixels off the paper along the rows (within `drawn`, where the drawing says where it drew). */
function measured(
  rgba: Uint8Array,
  width: number,
  height: number,
  paper: readonly [number, number, number],
  full: number,
  drawn?: Extents,
): InkPage {
  const [pr, pg, pb] = paper;
  const n = width * height;
  const rows = new Int32Array(height + 1);
  let segments = keptSegments;
  let count = 0;
  // Bare paper, most of a page, is one 32-bit word: passed over without reading its channels.
  const aligned = rgba.byteOffset % 4 === 0;
  // (Signed words: values past 2^31 would be read as doubles; a copy where the pixels are not
  // aligned: a Buffer's slice would be a view.)
  const words = new Int32Array(
    aligned ? rgba.buffer : new Uint8Array(rgba).buffer,
    aligned ? rgba.byteOffset : 0,
    n,
  );
  const bare = new Int32Array(new Uint8Array([pr, pg, pb, 255]).buffer)[0]!;
  for (let y = 0; y < height; y++) {
    rows[y] = count;
    let start = -1;
    const end = y * width + (drawn ? Math.min(width, drawn.to[y]!) : width);
    for (let p = y * width + (drawn ? Math.max(0, drawn.from[y]!) : 0); p < end; p++) {
      if (words[p] === bare) {
        if (start >= 0) {
          if (count + 2 > segments.length) segments = grown(segments);
          segments[count++] = start;
          segments[count++] = p;
          start = -1;
        }
      } else if (start < 0) start = p;
    }
    if (start >= 0) {
      if (count + 2 > segments.length) segments = grown(segments);
      segments[count++] = start;
      segments[count++] = end;
    }
  }
  rows[height] = count;
  keptSegments = segments;
  // How much ink a run holds across the row: its pixels inside counted whole, its two ends for
  // the part of them inked (their darkness against the ink at its fullest), so that how an edge
  // is anti-aliased does not move it by a pixel. In eighths of a pixel, the runs' first quartile.
  const inked = (p: number) => {
    const i = 4 * p;
    const d = Math.max(0, pr - rgba[i]!) + Math.max(0, pg - rgba[i + 1]!) + Math.max(0, pb - rgba[i + 2]!);
    return d >= 3 * full ? 1 : d / (3 * full);
  };
  const widths = new Uint32Array(STROKE_BINS);
  for (let k = 0; k < count; k += 2) {
    const [from, to] = [segments[k]!, segments[k + 1]!];
    const across = to - from === 1 ? inked(from) : to - from - 2 + inked(from) + inked(to - 1);
    widths[Math.min(STROKE_BINS - 1, Math.round(across * 8))]!++;
  }
  let bin = 0;
  for (let seen = 0; bin < STROKE_BINS - 1; bin++) {
    seen += widths[bin]!;
    if (seen * 4 >= count / 2) break;
  }
  const stroke = bin / 8;
  return { rgba, width, height, paper, dark: NO_DARK, segments, rows, stroke, full };
}
const NO_DARK = new Uint8Array(0);

/** Each ink pixel's darkness into `page.dark` (bare paper 0); how many are solid. */
function darkness(page: InkPage): number {
  const { rgba, width, height, segments, rows } = page;
  const [pr, pg, pb] = page.paper;
  const dark = scratch(width * height);
  page.dark = dark;
  let solid = 0;
  for (let k = 0; k < rows[height]!; k += 2)
    for (let p = segments[k]!, end = segments[k + 1]!; p < end; p++) {
      const i = 4 * p;
      const r = pr - rgba[i]!;
      const g = pg - rgba[i + 1]!;
      const b = pb - rgba[i + 2]!;
      const d = (r > 0 ? r : 0) + (g > 0 ? g : 0) + (b > 0 ? b : 0);
      const v = d >= 3 ? (d / 3) | 0 : 1;
      dark[p] = v;
      if (v >= SOLID) solid++;
    }
  return solid;
}

/**
 * A zeroed byte array of `n`, kept by the thread for the passes over a page (fresh megabytes a
 * render would be garbage for the collector and page faults for the system).
 */
function scratch(n: number): Uint8Array {
  if (kept.length < n) {
    kept = new Uint8Array(n);
    return kept;
  }
  kept.fill(0, 0, n);
  return kept.subarray(0, n);
}
let kept = new Uint8Array(0);
let keptSegments: Int32Array = new Int32Array(4096);

/** The same for two arrays of 16-bit numbers. */
function scratch16(which: 0 | 1, n: number): Uint16Array {
  let a = kept16[which];
  if (a === undefined || a.length < n) {
    a = new Uint16Array(n);
    kept16[which] = a;
    return a;
  }
  a.fill(0, 0, n);
  return a.subarray(0, n);
}
const kept16: (Uint16Array | undefined)[] = [];

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * How thick the ink is at each pixel (sixteenths of a pixel, in `thick`): the ink across its run
 * of the row and down its run of the column (runs of pixels off the paper, each pixel counting
 * its darkness against the ink at its fullest, so an edge's anti-aliasing counts for the part of
 * it inked), the smaller of the two: a stroke's width whichever way it runs, more where strokes
 * meet or pool. Up the page each pixel takes its column run's whole (the one below's, where the
 * run goes on), then the row's. And the median of it over the page's solid ink.
 */
function runs({ dark, segments, rows, width, height, full }: InkPage): { thick: Uint16Array; usual: number } {
  // Each pixel's own ink (sixteenths of the ink at its fullest), kept in `thick` until its row is
  // reached on the way up, and down each column's run the ink so far.
  const thick = scratch16(0, width * height);
  const down = scratch16(1, width * height);
  const scale = 16 / full;
  for (let y = 0; y < height; y++)
    for (let k = rows[y]!; k < rows[y + 1]!; k += 2)
      for (let p = segments[k]!, end = segments[k + 1]!; p < end; p++) {
        const own = Math.min(16, (dark[p]! * scale + 0.5) | 0);
        thick[p] = own;
        down[p] = Math.min(0xffff, (y > 0 ? down[p - width]! : 0) + own);
      }
  const counts = new Uint32Array(4096);
  let solid = 0;
  for (let y = height - 1; y >= 0; y--)
    for (let k = rows[y]!; k < rows[y + 1]!; k += 2) {
      const [from, to] = [segments[k]!, segments[k + 1]!];
      if (y < height - 1)
        for (let p = from; p < to; p++) if (down[p + width] !== 0) down[p] = down[p + width]!;
      let along = 0;
      for (let p = from; p < to; p++) along += thick[p]!;
      for (let p = from; p < to; p++) {
        const t = along < down[p]! ? along : down[p]!;
        thick[p] = t;
        if (dark[p]! >= SOLID) {
          counts[t < 4095 ? t : 4095]!++;
          solid++;
        }
      }
    }
  let usual = 1;
  for (let seen = 0; usual < 4095; usual++) {
    seen += counts[usual]!;
    if (seen * 2 >= solid) break;
  }
  return { thick, usual };
}

/** Moves each ink pixel's colour from the paper or towards it: the dry pen's bare tooth, then the ink's thickness. */
function tone(
  { rgba, dark, segments, rows, width, height, paper, full }: InkPage,
  thick: Uint16Array,
  ink: { pool: number; dry: number; seed: number; usual: number },
): void {
  const { pool, usual } = ink;
  const seed = ink.seed | 0;
  const paleAt = ink.dry > 0 ? DRY_TOOTH * ink.dry : 0;
  for (let y = 1; y < height - 1; y++)
    for (let k = rows[y]!; k < rows[y + 1]!; k += 2)
      for (let p = segments[k]!, end = segments[k + 1]!; p < end; p++) {
        const d = dark[p]!;
        const x = p - y * width;
        if (d < FAINT || x === 0 || x === width - 1) continue;
        const i = 4 * p;
        // A pen running dry: paler ink leaves the paper's tooth bare here and there inside its
        // strokes (not at their edges: all four neighbours solid), in grains of two pixels.
        const pale = paleAt > 0 && d >= SOLID ? ((full - d) / full) * paleAt : 0;
        if (pale > 0.01) {
          const skip = pale - hash(x >> 1, y >> 1, seed);
          if (
            skip > 0 &&
            dark[p - 1]! >= SOLID &&
            dark[p + 1]! >= SOLID &&
            dark[p - width]! >= SOLID &&
            dark[p + width]! >= SOLID
          ) {
            const keep = 1 - DRY_SKIP * Math.min(1, skip * 4);
            fromPaper(rgba, i, paper, keep);
          }
        }
        if (pool <= 0) continue;
        // A faint pixel (an edge's anti-aliasing) moves less.
        const t = thick[p]!;
        const weight = d >= SOLID ? 1 : (d - FAINT) / (SOLID - FAINT);
        const change = POOL_TONE * pool * (t / usual - 1);
        const m = 1 + weight * (change < -0.15 ? -0.15 : change > 0.2 ? 0.2 : change);
        if (m === 1) continue;
        fromPaper(rgba, i, paper, m);
      }
}

/** Moves pixel `i`'s colour along the line from the paper through it: `k` times as far from the paper. */
function fromPaper(
  rgba: Uint8Array,
  i: number,
  [pr, pg, pb]: readonly [number, number, number],
  k: number,
): void {
  rgba[i] = clamp(Math.round(pr - (pr - rgba[i]!) * k));
  rgba[i + 1] = clamp(Math.round(pg - (pg - rgba[i + 1]!) * k));
  rgba[i + 2] = clamp(Math.round(pb - (pb - rgba[i + 2]!) * k));
}

/** Darkness (0-255 from the paper) from which a pixel is ink, and below which (a rule, an edge's anti-aliasing) it is left alone. */
const SOLID = 90;
const FAINT = 40;

/** How pale ink (against the writing colour's) leaves the tooth bare: a share of grains, and how much of their ink goes. */
const DRY_TOOTH = 1.5;
const DRY_SKIP = 0.5;

/** A number in [0, 1) for a grain of the paper at (x, y): the same seed, the same tooth. */
function hash(x: number, y: number, seed: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1) ^ seed;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * The width of the thin strokes (InkPage.stroke, pixels) from which the tone inside strokes is
 * drawn: at 144 DPI Caveat and Dancing Script from 16 pt, Homemade Apple and Kalam from 12 pt.
 */
const TONE_FROM_PX = 1.75;
/** Eighths of a pixel up to 64 pixels: the bins of the runs' widths. */
const STROKE_BINS = 512;

/** How much the ink's tone follows the ink around it, at `amount` 1. */
const POOL_TONE = 1;
/** A flatbed scan: a slight blur over everything, then faint grey sensor noise (the same seed, the same noise). */
export function scan(rgba: Uint8Array, width: number, height: number, dpi: number, seed: number): void {
  blur(rgba, width, height, 0.25 * Math.min(1, dpi / BASE_DPI), Math.max(1, Math.round(dpi / BASE_DPI)));
  // Noise in runs of two pixels (a scanner's noise is not finer than its optics), ±6 levels.
  const r = new Random(seed, 'scanner');
  const n = width * height;
  for (let p = 0; p < n; p += 2) {
    const d = Math.round(12 * r.next()) - 6;
    for (let q = p; q < Math.min(n, p + 2); q++) {
      const i = q * 4;
      rgba[i] = clamp(rgba[i]! + d);
      rgba[i + 1] = clamp(rgba[i + 1]! + d);
      rgba[i + 2] = clamp(rgba[i + 2]! + d);
    }
  }
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
