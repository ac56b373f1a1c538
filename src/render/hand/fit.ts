// Few curves for a stroke's outline: the smooth closed curve through a ring of points (the sides
// of a stroke and its round ends) as cubic Béziers within a tolerance, by least squares with
// the tangents kept where two curves meet (P. J. Schneider, "An Algorithm for Automatically
// Fitting Digitized Curves", Graphics Gems, 1990). A letter's outline comes out with a third
// to a half of the curves it had as one quadratic per point of its centreline, which a PDF's
// font program, an SVG and the rasteriser each pay for. Pure; flat arrays, no allocation per
// point (the fitting runs for every drawing a thread builds).
import { hypot } from '../numbers.ts';

/**
 * Newton steps that improve the parameters of a curve that misses by less than REFIT_REACH
 * tolerances, before it is split.
 */
const REFITS = 20;
const REFIT_REACH = 9;

/**
 * Cubic Béziers through the closed ring `p` (x, y pairs, the first point not repeated at the
 * end), every point within `tol` of them: x0 y0, then for each curve its two control points and
 * its end (6 numbers), the last curve ending at x0 y0. The curve is smooth where two meet.
 */
export function fitRing(p: readonly number[], tol: number): number[] {
  // The ring as an open run from its first point back to it, duplicates dropped.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i <= p.length; i += 2) {
    const [x, y] = i < p.length ? [p[i]!, p[i + 1]!] : [p[0]!, p[1]!];
    if (xs.length && xs.at(-1) === x && ys.at(-1) === y) continue;
    xs.push(x);
    ys.push(y);
  }
  const out = [xs[0]!, ys[0]!];
  const n = xs.length;
  if (n < 3) return out;
  // One tangent where the ring closes, so the first curve leaves as the last arrives.
  const [tx, ty] = unit(xs[1]! - xs[n - 2]!, ys[1]! - ys[n - 2]!);
  const f = {
    xs,
    ys,
    tol2: tol * tol,
    out,
    u: new Float64Array(n),
    b: new Float64Array(8),
    len: 0,
    wild: false,
  };
  fit(f, 0, n - 1, tx, ty, -tx, -ty);
  return out;
}

function unit(x: number, y: number): [number, number] {
  const len = hypot(x, y);
  return len > 1e-12 ? [x / len, y / len] : [1, 0];
}

interface Fitting {
  xs: readonly number[];
  ys: readonly number[];
  /** The squared tolerance. */
  tol2: number;
  out: number[];
  /** Each point's parameter on the curve being fitted (indexed like the points). */
  u: Float64Array;
  /** The curve being fitted: p0, c1, c2, p3. */
  b: Float64Array;
  /** The length of the run of points being fitted. */
  len: number;
  /** Whether the curve's arms outreach the run (a loop between the points): it does not fit. */
  wild: boolean;
}

/** Fits points `first` to `last` leaving along (lx, ly) and arriving along (rx, ry) reversed; appends to `f.out`. */
function fit(f: Fitting, first: number, last: number, lx: number, ly: number, rx: number, ry: number): void {
  const { xs, ys, b } = f;
  if (last - first === 1) {
    const d = hypot(xs[last]! - xs[first]!, ys[last]! - ys[first]!) / 3;
    f.out.push(xs[first]! + lx * d, ys[first]! + ly * d, xs[last]! + rx * d, ys[last]! + ry * d);
    f.out.push(xs[last]!, ys[last]!);
    return;
  }
  chordLengths(f, first, last);
  generate(f, first, last, lx, ly, rx, ry);
  let [err, split] = maxError(f, first, last);
  for (let k = 0; k < REFITS && err >= f.tol2 && err < REFIT_REACH ** 2 * f.tol2; k++) {
    if (!reparameterize(f, first, last)) break; // the points' order lost: split
    generate(f, first, last, lx, ly, rx, ry);
    const [again, at] = maxError(f, first, last);
    if (again >= err) break; // no better: split
    [err, split] = [again, at];
  }
  if (err < f.tol2) {
    f.out.push(b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!);
    return;
  }
  // Split at the point that fits worst, with one tangent there for both halves.
  const [cx, cy] = unit(xs[split - 1]! - xs[split + 1]!, ys[split - 1]! - ys[split + 1]!);
  fit(f, first, split, lx, ly, cx, cy);
  fit(f, split, last, -cx, -cy, rx, ry);
}

function chordLengths(f: Fitting, first: number, last: number): void {
  const { xs, ys, u } = f;
  u[first] = 0;
  for (let i = first + 1; i <= last; i++) u[i] = u[i - 1]! + hypot(xs[i]! - xs[i - 1]!, ys[i]! - ys[i - 1]!);
  const total = u[last]! || 1;
  for (let i = first + 1; i <= last; i++) u[i] = u[i]! / total;
  f.len = total;
}

/** The least-squares curve from point `first` to `last` along the tangents given. */
function generate(
  f: Fitting,
  first: number,
  last: number,
  lx: number,
  ly: number,
  rx: number,
  ry: number,
): void {
  const { xs, ys, u, b } = f;
  const [x0, y0, x3, y3] = [xs[first]!, ys[first]!, xs[last]!, ys[last]!];
  let [c00, c01, c11, x0s, x1s] = [0, 0, 0, 0, 0];
  for (let i = first; i <= last; i++) {
    const t = u[i]!;
    const s = 1 - t;
    const [b0, b1, b2, b3] = [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t];
    const [a1x, a1y, a2x, a2y] = [lx * b1, ly * b1, rx * b2, ry * b2];
    c00 += a1x * a1x + a1y * a1y;
    c01 += a1x * a2x + a1y * a2y;
    c11 += a2x * a2x + a2y * a2y;
    const tx = xs[i]! - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const ty = ys[i]! - (y0 * (b0 + b1) + y3 * (b2 + b3));
    x0s += a1x * tx + a1y * ty;
    x1s += a2x * tx + a2y * ty;
  }
  const det = c00 * c11 - c01 * c01;
  let al = det === 0 ? 0 : (x0s * c11 - x1s * c01) / det;
  let ar = det === 0 ? 0 : (c00 * x1s - c01 * x0s) / det;
  const chord = hypot(x3 - x0, y3 - y0);
  // A degenerate or backward solution: the control points a third of the way along the tangents.
  if (al < 1e-6 * chord || ar < 1e-6 * chord) al = ar = chord / 3;
  // An arm longer than the run itself swings the curve out in a loop between its points, where
  // the error is not measured.
  f.wild = al > f.len || ar > f.len;
  b[0] = x0;
  b[1] = y0;
  b[2] = x0 + lx * al;
  b[3] = y0 + ly * al;
  b[4] = x3 + rx * ar;
  b[5] = y3 + ry * ar;
  b[6] = x3;
  b[7] = y3;
}

/** The largest squared distance of a point from the curve at its parameter, and which point. */
function maxError(f: Fitting, first: number, last: number): [number, number] {
  const { xs, ys, u, b } = f;
  let [worst, at] = [f.wild ? Number.POSITIVE_INFINITY : 0, (first + last) >> 1];
  for (let i = first + 1; i < last; i++) {
    const t = u[i]!;
    const s = 1 - t;
    const [b0, b1, b2, b3] = [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t];
    const dx = b0 * b[0]! + b1 * b[2]! + b2 * b[4]! + b3 * b[6]! - xs[i]!;
    const dy = b0 * b[1]! + b1 * b[3]! + b2 * b[5]! + b3 * b[7]! - ys[i]!;
    const d = dx * dx + dy * dy;
    if (d >= worst) [worst, at] = [d, i];
  }
  return [worst, at];
}

/**
 * One Newton step per point towards the parameter of the curve's nearest point; false when the
 * points no longer follow each other along the curve.
 */
function reparameterize(f: Fitting, first: number, last: number): boolean {
  const { xs, ys, u, b } = f;
  for (let i = first + 1; i < last; i++) {
    const t = u[i]!;
    const s = 1 - t;
    const qx = s * s * s * b[0]! + 3 * s * s * t * b[2]! + 3 * s * t * t * b[4]! + t * t * t * b[6]!;
    const qy = s * s * s * b[1]! + 3 * s * s * t * b[3]! + 3 * s * t * t * b[5]! + t * t * t * b[7]!;
    const d1x = 3 * (s * s * (b[2]! - b[0]!) + 2 * s * t * (b[4]! - b[2]!) + t * t * (b[6]! - b[4]!));
    const d1y = 3 * (s * s * (b[3]! - b[1]!) + 2 * s * t * (b[5]! - b[3]!) + t * t * (b[7]! - b[5]!));
    const d2x = 6 * (s * (b[4]! - 2 * b[2]! + b[0]!) + t * (b[6]! - 2 * b[4]! + b[2]!));
    const d2y = 6 * (s * (b[5]! - 2 * b[3]! + b[1]!) + t * (b[7]! - 2 * b[5]! + b[3]!));
    const [ex, ey] = [qx - xs[i]!, qy - ys[i]!];
    const den = d1x * d1x + d1y * d1y + ex * d2x + ey * d2y;
    if (den !== 0) u[i] = Math.min(1, Math.max(0, t - (ex * d1x + ey * d1y) / den));
  }
  for (let i = first + 1; i <= last; i++) if (u[i]! < u[i - 1]!) return false;
  return true;
}
