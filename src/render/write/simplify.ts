// Outline detail for a raster of known resolution. A handwriting font draws a letter with many
// short curves; at caption sizes most of them are finer than a pixel. For the PNG writer each
// outline is flattened to lines and every point closer than the tolerance to the line between
// its kept neighbours is dropped (Douglas-Peucker), so resvg parses and fills about half the
// segments for the same pixels. The SVG and PDF writers keep the full outlines: they can be zoomed.
import { hypot } from '../numbers.ts';

/**
 * Path data (absolute M, L, Q, C, Z in font units, as the variants module writes it) reduced to
 * closed polygons, x, y pairs in whole font units, that stay within `tolerance` of the outline.
 */
export function simplifyOutline(d: string, tolerance: number): Int32Array[] {
  const half = tolerance / 2; // half for flattening curves, half for dropping points
  return flatten(d, half).map((contour) => reduce(contour, half));
}

/** Each contour as a flat list of x, y with curves replaced by lines within `tol`. */
function flatten(d: string, tol: number): number[][] {
  const tokens = d.match(/[A-Za-z]|-?\d+(?:\.\d+)?(?:e-?\d+)?/g) ?? [];
  const contours: number[][] = [];
  let pts: number[] = [];
  let [x, y] = [0, 0];
  let i = 0;
  const num = () => Number(tokens[i++]);
  while (i < tokens.length) {
    const c = tokens[i++]!;
    if (c === 'M') {
      if (pts.length) contours.push(pts);
      [x, y] = [num(), num()];
      pts = [x, y];
    } else if (c === 'L') {
      [x, y] = [num(), num()];
      pts.push(x, y);
    } else if (c === 'Q') {
      const [x1, y1, x2, y2] = [num(), num(), num(), num()];
      // Uniform steps: the error of n chords is at most |p0 - 2p1 + p2| / (4n²).
      const n = Math.max(1, Math.ceil(Math.sqrt(hypot(x - 2 * x1 + x2, y - 2 * y1 + y2) / (4 * tol))));
      for (let k = 1; k <= n; k++) {
        const [t, u] = [k / n, 1 - k / n];
        pts.push(u * u * x + 2 * u * t * x1 + t * t * x2, u * u * y + 2 * u * t * y1 + t * t * y2);
      }
      [x, y] = [x2, y2];
    } else if (c === 'C') {
      const [x1, y1, x2, y2, x3, y3] = [num(), num(), num(), num(), num(), num()];
      const dd = Math.max(hypot(x - 2 * x1 + x2, y - 2 * y1 + y2), hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
      const n = Math.max(1, Math.ceil(Math.sqrt((3 * dd) / (4 * tol))));
      for (let k = 1; k <= n; k++) {
        const [t, u] = [k / n, 1 - k / n];
        const [a, b, c2, e] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        pts.push(a * x + b * x1 + c2 * x2 + e * x3, a * y + b * y1 + c2 * y2 + e * y3);
      }
      [x, y] = [x3, y3];
    } else if (c === 'Z') {
      if (pts.length) contours.push(pts);
      pts = [];
    } else {
      throw new Error(`unexpected path command ${c}`);
    }
  }
  if (pts.length) contours.push(pts);
  return contours;
}

/** A closed contour with the points that matter, in whole font units. */
function reduce(pts: number[], tol: number): Int32Array {
  const n = pts.length / 2;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  // A closed contour is split at its point farthest from the start, then each half reduced.
  let far = 0;
  let farDist = -1;
  for (let k = 1; k < n; k++) {
    const dist = hypot(pts[2 * k]! - pts[0]!, pts[2 * k + 1]! - pts[1]!);
    if (dist > farDist) [far, farDist] = [k, dist];
  }
  keep[far] = 1;
  const spans: [number, number][] = [
    [0, far],
    [far, n - 1],
  ];
  while (spans.length) {
    const [a, b] = spans.pop()!;
    const [ax, ay, bx, by] = [pts[2 * a]!, pts[2 * a + 1]!, pts[2 * b]!, pts[2 * b + 1]!];
    const len = hypot(bx - ax, by - ay);
    let worst = -1;
    let worstDist = tol;
    for (let k = a + 1; k < b; k++) {
      const [px, py] = [pts[2 * k]!, pts[2 * k + 1]!];
      const dist =
        len > 0 ? Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / len : hypot(px - ax, py - ay);
      if (dist > worstDist) [worst, worstDist] = [k, dist];
    }
    if (worst > 0) {
      keep[worst] = 1;
      spans.push([a, worst], [worst, b]);
    }
  }
  const out = new Int32Array(keep.reduce((sum, k) => sum + k, 0) * 2);
  for (let k = 0, j = 0; k < n; k++)
    if (keep[k]) [out[j++], out[j++]] = [Math.round(pts[2 * k]!), Math.round(pts[2 * k + 1]!)];
  return out;
}
