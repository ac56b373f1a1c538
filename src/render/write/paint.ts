// The PNG writer's own rasteriser, for a sheet that lies flat: the page's letters, rules, dots and
// hand-drawn lines filled straight into pixels. A shape's coverage of each pixel is its exact
// area, each edge's signed share accumulated along the rows (as font-rs draws a glyph), clamped to
// one: the pen's strokes overlap inside a letter and are inked once, a hole wound the other way is
// left bare (where two strokes' anti-aliased edges share a pixel, their parts add, not join: a
// level or two). Then its ink is laid over the paper as resvg lays it (sRGB, source over).
// Against resvg drawing the same page from its SVG, it needs no markup written and parsed: the
// whole PNG of a caption in about three quarters of the time (docs/performance.md), no sorting of
// crossings. test/unit/paint.test.ts holds the two side by side.
// Images on the page, a tilt, a shadow and the scanner's light are drawn by resvg.
import { div255, hexRgb } from '../color.ts';
import type { DisplayPage } from '../display-list.ts';
import type { Extents } from './soften.ts';
import { hypot } from '../numbers.ts';

/** Whether paintPage draws this page; resvg draws the rest. */
export function paintable(page: DisplayPage): boolean {
  const { tilt, shadow, scanner } = page.sheet;
  if (tilt !== 0 || shadow !== 0 || scanner) return false;
  for (const it of page.items) if (it.kind === 'image') return false;
  return true;
}

/**
 * Image size for a page drawn `width` pixels wide: the height in proportion to the nearest pixel,
 * from the page's size as the SVG writer states it (to a thousandth of a point), as resvg has it.
 */
function imageHeight(page: DisplayPage, width: number): number {
  const stated = (v: number) => Math.round(v * 1000) / 1000;
  return Math.round((width * stated(page.height)) / stated(page.width));
}

// The pixels of the last page, reused (a render thread writes one image at a time and its caller
// copies the PNG out before the next): a fresh 4 MB buffer costs a thousand page faults.
let image = new Uint8Array(0);
let drawn: Extents = { from: new Int32Array(0), to: new Int32Array(0) };

/**
 * A flat page (paintable) as opaque RGBA pixels, `width` wide: the sheet's colour, then each item
 * in order. `contours(ref)` gives a letter's outline as polylines in font units (the instance
 * matrix places them in points); `inkOf` the colour and opacity a letter is laid in. Consecutive
 * letters of one ink on one line are filled as one shape, as the SVG writer gathers them in one
 * path: where they overlap, the ink is not laid twice.
 */
export function paintPage(
  page: DisplayPage,
  width: number,
  contours: (ref: string) => readonly Int32Array[],
  inkOf: (it: { color: string; opacity: number; joins?: boolean }) => { color: string; opacity: number },
): { width: number; height: number; pixels: Uint8Array; drawn: Extents } {
  const height = imageHeight(page, width);
  if (drawn.from.length < height) drawn = { from: new Int32Array(height), to: new Int32Array(height) };
  drawn.from.fill(width, 0, height);
  drawn.to.fill(0, 0, height);
  const size = width * height * 4;
  if (image.length < size || image.length > 4 * size) image = new Uint8Array(size);
  const pixels = image.subarray(0, size);
  const [r, g, b] = hexRgb(page.background);
  new Uint32Array(pixels.buffer, pixels.byteOffset, width * height).fill(
    (0xff000000 | (b << 16) | (g << 8) | r) >>> 0,
  );
  const shape = new Shape(pixels, width, height, width / page.width, height / page.height, drawn);
  let ink = '';
  for (const it of page.items) {
    if (it.kind === 'glyph') {
      const { color, opacity } = inkOf(it);
      const key = `${color}/${opacity}`;
      const [a, b, c, d, e, f] = it.m;
      const outline = contours(it.ref);
      // A new ink, or a letter that does not share the line of those gathered, starts a shape.
      if (key !== ink || !shape.sameLine(outline, b, d, f)) {
        shape.fill();
        shape.ink(color, opacity);
        ink = key;
      }
      for (const pts of outline) shape.contour(pts, a, b, c, d, e, f);
      continue;
    }
    shape.fill();
    ink = '';
    if (it.kind === 'rule') {
      // A line with butt ends: the rectangle along it, `width` across.
      shape.ink(it.color, 1);
      shape.polygon(band(it.x1, it.y1, it.x2, it.y2, it.width / 2));
    } else if (it.kind === 'dot') {
      shape.ink(it.color, 1);
      shape.polygon(disc(it.x, it.y, it.r, shape.sx));
    } else if (it.kind === 'stroke') {
      // Round caps and joins: a disc at every point and a band along every segment, one shape
      // (where they overlap, the ink is laid once).
      shape.ink(it.color, it.opacity);
      const p = it.points;
      for (let k = 0; k + 1 < p.length; k += 2) {
        shape.polygon(disc(p[k]!, p[k + 1]!, it.width / 2, shape.sx));
        if (k + 3 < p.length) shape.polygon(band(p[k]!, p[k + 1]!, p[k + 2]!, p[k + 3]!, it.width / 2));
      }
    } else continue; // an image: not paintable
    shape.fill();
  }
  shape.fill();
  return {
    width,
    height,
    pixels,
    drawn: { from: drawn.from.subarray(0, height), to: drawn.to.subarray(0, height) },
  };
}

/** The rectangle along a segment, `half` to either side of it (none for a point). */
function band(x1: number, y1: number, x2: number, y2: number, half: number): number[] {
  const len = hypot(x2 - x1, y2 - y1);
  if (len === 0 || half <= 0) return [];
  const [nx, ny] = [(-(y2 - y1) / len) * half, ((x2 - x1) / len) * half];
  return [x1 + nx, y1 + ny, x2 + nx, y2 + ny, x2 - nx, y2 - ny, x1 - nx, y1 - ny];
}

/** A circle as a polygon within a twentieth of a pixel of it (`pxPerPt` pixels to the point). */
function disc(x: number, y: number, r: number, pxPerPt: number): number[] {
  const rpx = r * pxPerPt;
  if (rpx <= 0) return [];
  const sides = Math.max(8, Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - 0.05 / rpx))));
  const ring: number[] = [];
  for (let k = 0; k < sides; k++) {
    const t = (2 * Math.PI * k) / sides;
    ring.push(x + r * Math.cos(t), y + r * Math.sin(t));
  }
  return ring;
}

// How a shape's coverage steps up and down along each row of its box, pixel by pixel, in
// pixels' areas (accumulate()), kept between shapes (zeroed as it is summed); and on each row of
// the box, the first and last place a step was written (none: first > last). Left of the first
// the row is bare, and right of the last its sum is the shape's winding outside it, nought: a
// letter fills a fifth of its box, so blend() and the ink's measure after it read only the reach
// of each row.
let area = new Float32Array(1 << 16);
let first = new Int32Array(1024);
let last = new Int32Array(1024);

/** A shape being gathered: its edges in pixels, its box, and the ink it is filled with. */
class Shape {
  private edges = new Float64Array(4096); // x0 y0 x1 y1 of each edge, in image pixels
  private count = 0;
  // The box of the edges so far, in pixels.
  private left = 0;
  private top = 0;
  private right = 0;
  private bottom = 0;
  private rgb: [number, number, number] = [0, 0, 0];
  private alpha = 1;

  private readonly words: Int32Array; // signed: a word past 2^31 would be a double

  constructor(
    pixels: Uint8Array,
    private readonly width: number,
    private readonly height: number,
    readonly sx: number,
    readonly sy: number,
    private readonly drawn: Extents,
  ) {
    this.words = new Int32Array(pixels.buffer, pixels.byteOffset, width * height);
  }

  ink(color: string, opacity: number): void {
    this.rgb = hexRgb(color);
    this.alpha = opacity;
  }

  /**
   * Whether an outline placed by a matrix (of which b, d and f place it down the page) lies across
   * the rows of the shape so far (or the shape is empty).
   */
  sameLine(outline: readonly Int32Array[], b: number, d: number, f: number): boolean {
    if (this.count === 0) return true;
    let top = Number.POSITIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const pts of outline)
      for (let i = 0; i < pts.length; i += 2) {
        const y = (b * pts[i]! + d * pts[i + 1]! + f) * this.sy;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    return top < this.bottom && bottom > this.top;
  }

  /** A closed contour of font units, placed in points by the matrix. */
  contour(pts: Int32Array, a: number, b: number, c: number, d: number, e: number, f: number): void {
    const n = pts.length;
    if (n < 4) return;
    const sx = this.sx;
    const sy = this.sy;
    let px = (a * pts[n - 2]! + c * pts[n - 1]! + e) * sx;
    let py = (b * pts[n - 2]! + d * pts[n - 1]! + f) * sy;
    for (let i = 0; i < n; i += 2) {
      const x = (a * pts[i]! + c * pts[i + 1]! + e) * sx;
      const y = (b * pts[i]! + d * pts[i + 1]! + f) * sy;
      this.edge(px, py, x, y);
      px = x;
      py = y;
    }
  }

  /**
   * A closed polygon of points on the page: x0 y0 x1 y1 …, always wound the same way, so that the
   * polygons of one shape add up where they overlap instead of cancelling.
   */
  polygon(pts: readonly number[]): void {
    const n = pts.length;
    if (n < 6) return;
    let twice = 0; // twice the signed area
    for (let i = 0, j = n - 2; i < n; j = i, i += 2) twice += pts[j]! * pts[i + 1]! - pts[i]! * pts[j + 1]!;
    // Forwards from the first point, or backwards from the last; each edge from the point before.
    const step = twice < 0 ? -2 : 2;
    const [start, end] = step > 0 ? [0, n - 2] : [n - 2, 0];
    let px = pts[end]! * this.sx;
    let py = pts[end + 1]! * this.sy;
    for (let k = 0, i = start; k < n; k += 2, i += step) {
      const x = pts[i]! * this.sx;
      const y = pts[i + 1]! * this.sy;
      this.edge(px, py, x, y);
      px = x;
      py = y;
    }
  }

  private edge(x0: number, y0: number, x1: number, y1: number): void {
    if (this.count === 0) {
      this.left = this.right = x0;
      this.top = this.bottom = y0;
    }
    // The box grows by the edge's end; its start is the end of the edge before (or, for the
    // first edge of a contour, the last one's end, which comes later).
    if (x1 < this.left) this.left = x1;
    if (x1 > this.right) this.right = x1;
    if (y1 < this.top) this.top = y1;
    if (y1 > this.bottom) this.bottom = y1;
    if (y0 === y1) return; // no area to either side
    if (this.count + 4 > this.edges.length) {
      const more = new Float64Array(this.edges.length * 2);
      more.set(this.edges);
      this.edges = more;
    }
    const at = this.count;
    const edges = this.edges;
    edges[at] = x0;
    edges[at + 1] = y0;
    edges[at + 2] = x1;
    edges[at + 3] = y1;
    this.count = at + 4;
  }

  /** Fills the shape gathered so far over the pixels, and starts an empty one. */
  fill(): void {
    const count = this.count;
    if (count === 0) return;
    this.count = 0;
    const { edges } = this;
    const width = this.width;
    const height = this.height;
    // The box on the image: whole pixels, and two more columns for where the last span ends.
    const left = Math.max(0, Math.floor(this.left));
    const top = Math.max(0, Math.floor(this.top));
    const right = Math.min(width, Math.ceil(this.right));
    const bottom = Math.min(height, Math.ceil(this.bottom));
    if (right <= left || bottom <= top) return;
    const w = right - left;
    const stride = w + 2;
    const rows = bottom - top;
    if (area.length < stride * rows) area = new Float32Array(Math.max(stride * rows, area.length * 2));
    if (first.length < rows) {
      first = new Int32Array(Math.max(rows, first.length * 2));
      last = new Int32Array(first.length);
    }
    first.fill(stride, 0, rows);
    last.fill(-1, 0, rows);
    accumulate(edges, count, left, top, w, rows, stride);
    this.blend(left, top, w, rows, stride);
  }

  /** Each pixel's coverage summed along its row, the ink laid over it by that much; the area zeroed. */
  private blend(left: number, top: number, w: number, rows: number, stride: number): void {
    const words = this.words;
    const width = this.width;
    const drawn = this.drawn;
    const [r, g, b] = this.rgb;
    // Coverage in 1/255 steps, as resvg's mask has it.
    const full = this.alpha * 255;
    const fullK = (full + 0.5) | 0;
    const solid = 0xff000000 | (b << 16) | (g << 8) | r;
    for (let y = 0; y < rows; y++) {
      const from = first[y]!;
      const to = last[y]!;
      if (to < from) continue;
      const row = y * stride;
      // Pixels up to the last step's, within the box; the steps past it (the box's two spare
      // columns) only zeroed.
      const end = to < w ? to + 1 : w;
      if (left + from < drawn.from[top + y]!) drawn.from[top + y] = left + from;
      if (left + end > drawn.to[top + y]!) drawn.to[top + y] = left + end;
      for (let x = end; x <= to; x++) area[row + x] = 0;
      let p = (top + y) * width + left + from;
      let sum = 0;
      for (let x = from; x < end; x++, p++) {
        const step = area[row + x]!;
        if (step !== 0) {
          sum += step;
          area[row + x] = 0;
        }
        const c = sum < 0 ? -sum : sum;
        const k = c < 1 ? (c * full + 0.5) | 0 : fullK;
        if (k <= 0) continue; // bare: most of a letter's box
        if (k >= 255) {
          words[p] = solid;
          continue;
        }
        const o = 255 - k;
        const was = words[p]!;
        words[p] =
          0xff000000 |
          (div255(b * k + ((was >>> 16) & 0xff) * o + 127) << 16) |
          (div255(g * k + ((was >>> 8) & 0xff) * o + 127) << 8) |
          div255(r * k + (was & 0xff) * o + 127) |
          0;
      }
    }
  }
}

/**
 * The shape's coverage of each pixel of its box into `area`, as steps to be summed along the row:
 * each edge adds the area between it and the box's right side, row by row, signed by its
 * direction (down +, up -), so that the sum along a row is the winding of the shape over each
 * pixel, exact in area; clamped to one, overlapping strokes of one shape are inked once.
 */
function accumulate(
  edges: Float64Array,
  count: number,
  left: number,
  top: number,
  w: number,
  rows: number,
  stride: number,
): void {
  // Whole numbers, and known to be: the box's width and height are what a coordinate is clamped
  // to (xa = w), and V8 holds a number that may be either a coordinate or an argument of unknown
  // kind as an object, one allocated for each edge's every row (1.5 MB a caption; 0.6 ms).
  const wide = w | 0;
  const high = rows | 0;
  for (let e = 0; e < count; e += 4) {
    let x0 = edges[e]! - left;
    let y0 = edges[e + 1]! - top;
    let x1 = edges[e + 2]! - left;
    let y1 = edges[e + 3]! - top;
    let dir = 1;
    if (y1 < y0) {
      const tx = x0;
      const ty = y0;
      x0 = x1;
      y0 = y1;
      x1 = tx;
      y1 = ty;
      dir = -1;
    }
    if (y1 <= 0 || y0 >= high) continue;
    const dxdy = (x1 - x0) / (y1 - y0);
    let x = x0;
    if (y0 < 0) {
      x -= y0 * dxdy;
      y0 = 0;
    }
    const yEnd = y1 < high ? y1 : high;
    for (let y = y0 | 0; y < yEnd; y++) {
      const dy = (y + 1 < yEnd ? y + 1 : yEnd) - (y > y0 ? y : y0);
      const xnext = x + dxdy * dy;
      const d = dy * dir;
      let xa = x < xnext ? x : xnext;
      let xb = x < xnext ? xnext : x;
      if (xa < 0) xa = 0;
      if (xb < 0) xb = 0;
      if (xa > wide) xa = wide;
      if (xb > wide) xb = wide;
      const line = y * stride;
      const xaFloor = Math.floor(xa);
      const xai = xaFloor | 0;
      const xbCeil = Math.ceil(xb);
      const xbi = xbCeil | 0;
      // The steps go to xai … xbi, or to xai and the pixel after it.
      const hi = xbi > xai + 1 ? xbi : xai + 1;
      if (xai < first[y]!) first[y] = xai;
      if (hi > last[y]!) last[y] = hi;
      if (xbi <= xai + 1) {
        const mid = 0.5 * (xa + xb) - xaFloor;
        area[line + xai] = area[line + xai]! + d - d * mid;
        area[line + xai + 1] = area[line + xai + 1]! + d * mid;
      } else {
        const s = 1 / (xb - xa);
        const fa = xa - xaFloor;
        const a0 = 0.5 * s * (1 - fa) * (1 - fa);
        const fb = xb - xbCeil + 1;
        const am = 0.5 * s * fb * fb;
        area[line + xai] = area[line + xai]! + d * a0;
        if (xbi === xai + 2) area[line + xai + 1] = area[line + xai + 1]! + d * (1 - a0 - am);
        else {
          const a1 = s * (1.5 - fa);
          area[line + xai + 1] = area[line + xai + 1]! + d * (a1 - a0);
          for (let xi = xai + 2; xi < xbi - 1; xi++) area[line + xi] = area[line + xi]! + d * s;
          const a2 = a1 + (xbi - xai - 3) * s;
          area[line + xbi - 1] = area[line + xbi - 1]! + d * (1 - a2 - am);
        }
        area[line + xbi] = area[line + xbi]! + d * am;
      }
      x = xnext;
    }
  }
}
