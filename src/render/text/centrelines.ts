// A glyph as pen strokes: the centrelines of its ink, in writing order, with the pen's width
// along them. The outline is filled into a bitmap (nonzero winding, RES pixels to the em); a
// Euclidean distance transform gives the ink's half-width at every pixel; Zhang-Suen thinning
// leaves the one-pixel skeleton, whose staircase corners are then dropped so that every pixel has
// as many neighbours as strokes meet there. The skeleton is read as a graph (ends, junctions,
// and the pixel runs between them); spurs shorter than the ink is wide (the thinning's answer to
// a corner or a blunt end) are cut; at a junction, the two runs that continue each other most
// straightly are one stroke (the stem of a b through its bowl). Each stroke is smoothed, thinned
// to the points that matter, and turned to run as a Latin writer's pen does: from its upper left
// end, a closed one (the bowl of an o) anticlockwise from its top. Strokes that touch the glyph's
// origin or its advance mark joins (a connected hand runs in and out there). Deterministic; pure.
import type { PathCommand, PenStroke } from '../geometry.ts';
import { hypot } from '../numbers.ts';

/** Pixels to the em of the bitmap the centrelines are read from. */
export const RES = 192;
/** Pixels added to the width read at a centreline pixel (its distance to the blank is measured centre to centre, and smoothing cuts a little off curves). */
const WIDEN = 0.5;

/**
 * The strokes of a glyph's outline. `joined`: the glyph is a letter of a connected hand, whose
 * strokes run in from the letter before at its origin and out into the next at `advance` (font
 * units): those strokes are turned to start or end there and marked.
 */
export function centrelines(
  outline: readonly PathCommand[],
  upem: number,
  joined?: { advance: number },
): PenStroke[] {
  const polygons = flatten(outline, upem / RES / 4);
  if (!polygons.length) return [];
  const scale = RES / upem;
  const grid = rasterise(polygons, scale);
  if (!grid) return [];
  const dist = distanceInside(grid);
  const skeleton = thin(grid);
  keepEveryBlot(grid, skeleton, dist);
  const runs = prune(traced(skeleton, grid.w), dist);
  const strokes = joinedAtJunctions(runs, grid.w).map((run) => {
    const pts: number[] = [];
    const widths: number[] = [];
    for (const p of run.pixels) {
      const x = p % grid.w;
      const y = (p - x) / grid.w;
      pts.push((x + 0.5 + grid.x0) / scale, (grid.y0 - y - 0.5) / scale);
      widths.push((2 * Math.sqrt(dist[p]!) + WIDEN) / scale);
    }
    return smoothed(pts, widths, run.closed, upem);
  });
  const joins = joined ? joinZone(upem, joined.advance) : null;
  const ordered = strokes.filter((s) => s.points.length >= 2).map((s) => oriented(s, joins));
  // A dot is a stroke of one point: the pen set down and lifted.
  const order = writingOrder(
    ordered.map((s) => withJoins(s, joins)),
    upem,
  );
  // A dot or a bar is never a join.
  return order.strokes.map((s) => (order.secondary.has(s) ? { ...s, entry: false, exit: false } : s));
}

type Polygon = number[];

/** Contours as polygons (font units), curves cut into lines within `tol`. */
function flatten(outline: readonly PathCommand[], tol: number): Polygon[] {
  const out: Polygon[] = [];
  let cur: Polygon = [];
  let [x, y] = [0, 0];
  const steps = (len: number) => Math.max(2, Math.min(64, Math.ceil(Math.sqrt(len / tol))));
  for (const c of outline) {
    const v = c.values;
    if (c.type === 'M') {
      if (cur.length >= 6) out.push(cur);
      [x, y] = [v[0]!, v[1]!];
      cur = [x, y];
    } else if (c.type === 'L') {
      [x, y] = [v[0]!, v[1]!];
      cur.push(x, y);
    } else if (c.type === 'Q') {
      const n = steps(hypot(v[0]! - x, v[1]! - y) + hypot(v[2]! - v[0]!, v[3]! - v[1]!));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        cur.push(
          u * u * x + 2 * u * t * v[0]! + t * t * v[2]!,
          u * u * y + 2 * u * t * v[1]! + t * t * v[3]!,
        );
      }
      [x, y] = [v[2]!, v[3]!];
    } else if (c.type === 'C') {
      const n = steps(
        hypot(v[0]! - x, v[1]! - y) +
          hypot(v[2]! - v[0]!, v[3]! - v[1]!) +
          hypot(v[4]! - v[2]!, v[5]! - v[3]!),
      );
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        const [a, b, c2, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        cur.push(a * x + b * v[0]! + c2 * v[2]! + d * v[4]!, a * y + b * v[1]! + c2 * v[3]! + d * v[5]!);
      }
      [x, y] = [v[4]!, v[5]!];
    }
  }
  if (cur.length >= 6) out.push(cur);
  return out;
}

interface Grid {
  w: number;
  h: number;
  /** Pixel (0, 0)'s left edge and top edge in pixels of the em (x right, y up). */
  x0: number;
  y0: number;
  ink: Uint8Array;
}

/** The polygons filled (nonzero winding) into a bitmap with a blank pixel border, rows top down. */
function rasterise(polygons: Polygon[], scale: number): Grid | null {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons)
    for (let i = 0; i < p.length; i += 2) {
      minX = Math.min(minX, p[i]!);
      maxX = Math.max(maxX, p[i]!);
      minY = Math.min(minY, p[i + 1]!);
      maxY = Math.max(maxY, p[i + 1]!);
    }
  const x0 = Math.floor(minX * scale) - 2;
  const y0 = Math.ceil(maxY * scale) + 2;
  const w = Math.ceil(maxX * scale) + 2 - x0;
  const h = y0 - (Math.floor(minY * scale) - 2);
  if (w <= 0 || h <= 0 || w * h > 4_000_000) return null;
  const ink = new Uint8Array(w * h);
  const crossings: { x: number; dir: number }[] = [];
  for (let row = 0; row < h; row++) {
    const yc = (y0 - row - 0.5) / scale; // the row's centre in font units
    crossings.length = 0;
    for (const p of polygons) {
      const n = p.length / 2;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        const [ax, ay, bx, by] = [p[2 * i]!, p[2 * i + 1]!, p[2 * j]!, p[2 * j + 1]!];
        if (ay <= yc === by <= yc) continue;
        const t = (yc - ay) / (by - ay);
        crossings.push({ x: (ax + t * (bx - ax)) * scale - x0, dir: by > ay ? 1 : -1 });
      }
    }
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    for (let k = 0; k < crossings.length; k++) {
      const before = winding;
      winding += crossings[k]!.dir;
      if (before !== 0 || winding === 0) continue;
      // A span starts here; it ends where the winding comes back to zero.
      let end = k + 1;
      let wnd = winding;
      while (end < crossings.length) {
        wnd += crossings[end]!.dir;
        if (wnd === 0) break;
        end++;
      }
      const from = Math.max(0, Math.round(crossings[k]!.x));
      const to = Math.min(w, Math.round(crossings[Math.min(end, crossings.length - 1)]!.x));
      for (let x = from; x < to; x++) ink[row * w + x] = 1;
      winding = 0;
      k = end;
    }
  }
  return { w, h, x0, y0, ink };
}

/** Squared distance from each ink pixel to the nearest blank one (Felzenszwalb and Huttenlocher's exact transform). */
function distanceInside(g: Grid): Float64Array {
  const { w, h, ink } = g;
  const INF = 1e12;
  const d = new Float64Array(w * h);
  for (let i = 0; i < w * h; i++) d[i] = ink[i] ? INF : 0;
  const n = Math.max(w, h);
  const f = new Float64Array(n);
  const out = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  const pass = (len: number) => {
    let k = 0;
    v[0] = 0;
    z[0] = -Infinity;
    z[1] = Infinity;
    for (let q = 1; q < len; q++) {
      let s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
      while (s <= z[k]!) {
        k--;
        s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = Infinity;
    }
    k = 0;
    for (let q = 0; q < len; q++) {
      while (z[k + 1]! < q) k++;
      out[q] = (q - v[k]!) ** 2 + f[v[k]!]!;
    }
  };
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) f[y] = d[y * w + x]!;
    pass(h);
    for (let y = 0; y < h; y++) d[y * w + x] = out[y]!;
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) f[x] = d[y * w + x]!;
    pass(w);
    for (let x = 0; x < w; x++) d[y * w + x] = out[x]!;
  }
  return d;
}

/** The 8 neighbours' offsets, clockwise from north: N, NE, E, SE, S, SW, W, NW. */
const ring = (w: number) => [-w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1];

/** Zhang-Suen thinning to a one-pixel skeleton, then staircase corners dropped (a pixel each). */
function thin(g: Grid): Uint8Array {
  const { w, h } = g;
  const s = g.ink.slice();
  const o = ring(w);
  const del: number[] = [];
  // Only pixels on the ink's edge can go: each pass looks at those left from the one before.
  let edge: number[] = [];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      if (s[p] && (!s[p - w] || !s[p + w] || !s[p - 1] || !s[p + 1])) edge.push(p);
    }
  const inGrid = (p: number) => {
    const x = p % w;
    return x > 0 && x < w - 1 && p > w && p < s.length - w;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (let step = 0; step < 2; step++) {
      del.length = 0;
      for (const p of edge) {
        if (!s[p]) continue;
        const n0 = s[p - w]!;
        const n1 = s[p - w + 1]!;
        const n2 = s[p + 1]!;
        const n3 = s[p + w + 1]!;
        const n4 = s[p + w]!;
        const n5 = s[p + w - 1]!;
        const n6 = s[p - 1]!;
        const n7 = s[p - w - 1]!;
        const b = n0 + n1 + n2 + n3 + n4 + n5 + n6 + n7;
        if (b < 2 || b > 6) continue;
        const a =
          (+!n0 & n1) +
          (+!n1 & n2) +
          (+!n2 & n3) +
          (+!n3 & n4) +
          (+!n4 & n5) +
          (+!n5 & n6) +
          (+!n6 & n7) +
          (+!n7 & n0);
        if (a !== 1) continue;
        if (step === 0 ? n0 * n2 * n4 || n2 * n4 * n6 : n0 * n2 * n6 || n0 * n4 * n6) continue;
        del.push(p);
      }
      for (const p of del) s[p] = 0;
      if (del.length) {
        changed = true;
        // The next edge: what is left of this one, and the ink beside what went.
        const next = new Set<number>();
        for (const p of edge) if (s[p]) next.add(p);
        for (const p of del) for (const d of o) if (s[p + d] && inGrid(p + d)) next.add(p + d);
        edge = [...next].sort((a, b) => a - b);
      }
    }
  }
  // A staircase's corner: two perpendicular side neighbours, and nothing on the far sides nor
  // across the diagonal between the near ones' opposites. Its neighbours touch each other already.
  const [N, NE, E, SE, S, SW, W, NW] = o as [number, number, number, number, number, number, number, number];
  // Each corner: the two side neighbours it joins, the two far sides, the diagonal across.
  const corners: [number, number, number, number, number][] = [
    [N, E, S, W, SW],
    [E, S, N, W, NW],
    [S, W, N, E, NE],
    [W, N, S, E, SE],
  ];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      if (!s[p]) continue;
      for (const [a, b, c, d, e] of corners)
        if (s[p + a] && s[p + b] && !s[p + c] && !s[p + d] && !s[p + e]) {
          s[p] = 0;
          break;
        }
    }
  return s;
}

/** The 8-connected patches of the pixels `on` picks, each as the list of its pixels (raster order of their first). */
function patches(size: number, w: number, on: (p: number) => boolean): number[][] {
  const seen = new Uint8Array(size);
  const o = ring(w);
  const out: number[][] = [];
  for (let p = 0; p < size; p++) {
    if (seen[p] || !on(p)) continue;
    const patch: number[] = [];
    const stack = [p];
    seen[p] = 1;
    while (stack.length) {
      const q = stack.pop()!;
      patch.push(q);
      for (const d of o) {
        const r = q + d;
        if (r >= 0 && r < size && !seen[r] && on(r)) {
          seen[r] = 1;
          stack.push(r);
        }
      }
    }
    out.push(patch);
  }
  return out;
}

/** A small round blot (a dot) can thin away whole: each patch of ink left without a skeleton pixel gets its deepest one. */
function keepEveryBlot(g: Grid, skeleton: Uint8Array, dist: Float64Array): void {
  for (const patch of patches(g.ink.length, g.w, (p) => g.ink[p] === 1)) {
    if (patch.some((p) => skeleton[p])) continue;
    skeleton[patch.reduce((a, b) => (dist[b]! > dist[a]! ? b : a))] = 1;
  }
}

interface Run {
  /** Pixel indices in order. */
  pixels: number[];
  closed: boolean;
  /** The node (junction cluster) at each end, -1 for a free end. */
  from: number;
  to: number;
}

/** The skeleton as runs of pixels between its ends and junctions (closed loops whole). */
function traced(s: Uint8Array, w: number): Run[] {
  const o = ring(w);
  const degree = new Uint8Array(s.length);
  for (let p = w; p < s.length - w; p++) if (s[p]) degree[p] = o.reduce((a, d) => a + s[p + d]!, 0);
  // Junction pixels that touch form one node.
  const node = new Int32Array(s.length).fill(-1);
  patches(s.length, w, (p) => s[p] === 1 && degree[p]! >= 3).forEach((patch, n) => {
    for (const p of patch) node[p] = n;
  });
  const seen = new Uint8Array(s.length);
  const runs: Run[] = [];
  const walk = (start: number, first: number, from: number): Run => {
    const pixels = [start, first];
    let [prev, cur] = [start, first];
    seen[first] = 1;
    while (node[cur] === -1 && degree[cur]! === 2) {
      let next = -1;
      // Side neighbours before diagonal ones: the path's own next pixel.
      for (const i of [0, 2, 4, 6, 1, 3, 5, 7]) {
        const r = cur + o[i]!;
        if (s[r] && r !== prev && !seen[r]) {
          next = r;
          break;
        }
      }
      if (next === -1) break;
      pixels.push(next);
      if (node[next] === -1) seen[next] = 1;
      [prev, cur] = [cur, next];
    }
    return { pixels, closed: false, from, to: node[cur] === -1 ? -1 : node[cur]! };
  };
  // From every end and every junction pixel, along each way out not yet walked.
  for (let p = w; p < s.length - w; p++) {
    if (!s[p] || (degree[p]! === 2 && node[p] === -1)) continue;
    if (node[p] === -1) seen[p] = 1;
    for (const d of o) {
      const r = p + d;
      if (!s[r] || seen[r] || (node[r] !== -1 && node[r] === node[p])) continue;
      if (node[r] !== -1 && node[p] !== -1) continue; // two junctions side by side: no run between
      if (node[r] !== -1 && node[p] === -1 && degree[p]! === 1) {
        // A lone end pixel right beside a junction: a stub.
        runs.push({ pixels: [p, r], closed: false, from: -1, to: node[r]! });
        continue;
      }
      runs.push(walk(p, r, node[p]!));
    }
    if (node[p] === -1 && degree[p]! === 0) runs.push({ pixels: [p], closed: false, from: -1, to: -1 });
  }
  // Loops with neither end nor junction (an o): start at the top, left.
  for (let p = w; p < s.length - w; p++) {
    if (!s[p] || seen[p] || node[p] !== -1) continue;
    seen[p] = 1;
    let next = -1;
    for (const i of [2, 4, 3, 1, 0, 5, 6, 7]) if (s[p + o[i]!]) next = next === -1 ? p + o[i]! : next;
    if (next === -1) continue;
    const run = walk(p, next, -1);
    run.closed = true;
    run.pixels.push(p);
    runs.push(run);
  }
  return runs;
}

/**
 * Spurs cut: a run from a free end to a junction whose end's disc of ink lies within the
 * junction's (the thinning's answer to a corner or a blunt end). Junctions joined by a run no
 * longer than they are wide are one junction (two strokes crossing make two).
 */
function prune(runs: Run[], dist: Float64Array): Run[] {
  const r = (p: number) => Math.sqrt(dist[p]!);
  const root = new Map<number, number>();
  const find = (n: number): number => {
    let k = n;
    while (root.has(k) && root.get(k) !== k) k = root.get(k)!;
    return k;
  };
  const kept = runs.filter((run) => {
    if (run.closed || run.from === -1 || run.to === -1 || run.from === run.to) return true;
    const [a, b] = [run.pixels[0]!, run.pixels.at(-1)!];
    if (run.pixels.length > 1.5 * Math.max(r(a), r(b))) return true;
    root.set(find(run.from), find(run.to));
    return false;
  });
  for (const run of kept) {
    if (run.from !== -1) run.from = find(run.from);
    if (run.to !== -1) run.to = find(run.to);
  }
  return kept.filter((run) => {
    if (run.closed || (run.from !== -1) === (run.to !== -1)) return true;
    const [junction, end] =
      run.from !== -1 ? [run.pixels[0]!, run.pixels.at(-1)!] : [run.pixels.at(-1)!, run.pixels[0]!];
    return run.pixels.length + r(end) > 1.3 * r(junction);
  });
}

/** Runs that meet at a junction and go on from each other within 50 degrees are one stroke. */
function joinedAtJunctions(runs: Run[], w: number): Run[] {
  const dir = (r: Run, atStart: boolean): [number, number] => {
    const px = r.pixels;
    const k = Math.min(px.length - 1, 8);
    const [a, b] = atStart ? [px[k]!, px[0]!] : [px[px.length - 1 - k]!, px[px.length - 1]!];
    const [dx, dy] = [(b % w) - (a % w), Math.floor(b / w) - Math.floor(a / w)];
    const len = hypot(dx, dy) || 1;
    return [dx / len, dy / len]; // pointing into the junction
  };
  const live = runs.slice();
  for (let changed = true; changed; ) {
    changed = false;
    let best: { i: number; j: number; ai: boolean; aj: boolean; cos: number } | null = null;
    for (let i = 0; i < live.length; i++)
      for (let j = i + 1; j < live.length; j++) {
        const [ri, rj] = [live[i]!, live[j]!];
        if (ri.closed || rj.closed) continue;
        for (const ai of [true, false])
          for (const aj of [true, false]) {
            const ni = ai ? ri.from : ri.to;
            const nj = aj ? rj.from : rj.to;
            if (ni === -1 || ni !== nj) continue;
            const [di, dj] = [dir(ri, ai), dir(rj, aj)];
            const cos = -(di[0] * dj[0] + di[1] * dj[1]); // 1: straight on through the junction
            if (cos > Math.cos((50 * Math.PI) / 180) && (!best || cos > best.cos))
              best = { i, j, ai, aj, cos };
          }
      }
    if (best) {
      const [ri, rj] = [live[best.i]!, live[best.j]!];
      const a = best.ai ? ri.pixels.slice().reverse() : ri.pixels;
      const b = best.aj ? rj.pixels : rj.pixels.slice().reverse();
      const from = best.ai ? ri.to : ri.from;
      const to = best.aj ? rj.to : rj.from;
      const joined: Run = { pixels: [...a, ...b], closed: false, from, to };
      live.splice(best.j, 1);
      live.splice(best.i, 1, joined);
      changed = true;
    }
  }
  return live;
}

/** A run's points smoothed (a moving average that keeps its ends), then thinned to those that matter. */
function smoothed(pts: number[], widths: number[], closed: boolean, upem: number): PenStroke {
  const n = pts.length / 2;
  const K = 3;
  const sx: number[] = [];
  const sw: number[] = [];
  for (let i = 0; i < n; i++) {
    let [x, y, wsum, c] = [0, 0, 0, 0];
    const reach = closed ? K : Math.min(K, i, n - 1 - i);
    for (let k = -reach; k <= reach; k++) {
      const j = closed ? (i + k + n) % n : i + k;
      x += pts[2 * j]!;
      y += pts[2 * j + 1]!;
      wsum += widths[j]!;
      c++;
    }
    sx.push(x / c, y / c);
    sw.push(wsum / c);
  }
  const keep = douglasPeucker(sx, upem * 0.004);
  return {
    points: keep.flatMap((i) => [sx[2 * i]!, sx[2 * i + 1]!]),
    widths: keep.map((i) => sw[i]!),
    closed,
    entry: false,
    exit: false,
  };
}

/** Indices of the points kept within `tol` of the polyline (the ends always). */
function douglasPeucker(p: number[], tol: number): number[] {
  const n = p.length / 2;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay, bx, by] = [p[2 * a]!, p[2 * a + 1]!, p[2 * b]!, p[2 * b + 1]!];
    const len = hypot(bx - ax, by - ay);
    let [far, at] = [-1, -1];
    for (let i = a + 1; i < b; i++) {
      const [x, y] = [p[2 * i]!, p[2 * i + 1]!];
      const d = len > 0 ? Math.abs((bx - ax) * (ay - y) - (ax - x) * (by - ay)) / len : hypot(x - ax, y - ay);
      if (d > far) [far, at] = [d, i];
    }
    if (far > tol) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

/** Where a joined letter's joins are: its origin and its advance, from the baseline to a little above the x-height. */
interface JoinZone {
  advance: number;
  near: number;
  low: number;
  high: number;
}

function joinZone(upem: number, advance: number): JoinZone {
  return { advance, near: upem * 0.1, low: -0.08 * upem, high: 0.62 * upem };
}

const atOrigin = (z: JoinZone, x: number, y: number) => x <= z.near && y >= z.low && y <= z.high;
const atAdvance = (z: JoinZone, x: number, y: number) => x >= z.advance - z.near && y >= z.low && y <= z.high;

/**
 * Turned to run as a pen writes it: a stroke that a join runs into starts there, one that runs
 * out into the next letter ends there; any other open one starts at its upper left end; a closed
 * one runs anticlockwise from its top.
 */
function oriented(s: PenStroke, joins: JoinZone | null): PenStroke {
  const n = s.widths.length;
  const reverse = (): PenStroke => ({
    ...s,
    points: Array.from({ length: n }, (_, i) => [
      s.points[2 * (n - 1 - i)]!,
      s.points[2 * (n - 1 - i) + 1]!,
    ]).flat(),
    widths: s.widths.slice().reverse(),
  });
  if (!s.closed) {
    const [x0, y0, x1, y1] = [s.points[0]!, s.points[1]!, s.points[2 * n - 2]!, s.points[2 * n - 1]!];
    if (joins) {
      const inAt = atOrigin(joins, x0, y0) || atOrigin(joins, x1, y1);
      const outAt = atAdvance(joins, x0, y0) || atAdvance(joins, x1, y1);
      // From the origin end, or towards the advance end: left to right along the line.
      if (inAt || outAt) return x0 <= x1 ? s : reverse();
    }
    return y0 - 0.7 * x0 >= y1 - 0.7 * x1 ? s : reverse();
  }
  // Anticlockwise (y up: positive area), starting at the top.
  let area = 0;
  for (let i = 0; i < n - 1; i++)
    area += s.points[2 * i]! * s.points[2 * i + 3]! - s.points[2 * i + 2]! * s.points[2 * i + 1]!;
  const ccw = area >= 0 ? s : reverse();
  let top = 0;
  for (let i = 1; i < n - 1; i++) if (ccw.points[2 * i + 1]! > ccw.points[2 * top + 1]!) top = i;
  const ring = Array.from({ length: n - 1 }, (_, i) => (top + i) % (n - 1));
  ring.push(top);
  return {
    ...ccw,
    points: ring.flatMap((i) => [ccw.points[2 * i]!, ccw.points[2 * i + 1]!]),
    widths: ring.map((i) => ccw.widths[i]!),
  };
}

/**
 * The order a writer makes the strokes in: the letter's body left to right (a stroke that starts
 * well to the left first, else the higher one), then each dot or bar after the body strokes it
 * stands over or crosses (the i's dot after its stem, the t's bar after its downstroke). A dot is
 * a stroke shorter than a tenth of the em; a bar is a flat stroke that another stroke crosses.
 */
function writingOrder(
  strokes: PenStroke[],
  upem: number,
): { strokes: PenStroke[]; secondary: Set<PenStroke> } {
  const span = (s: PenStroke) => {
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let i = 0; i < s.points.length; i += 2) {
      x0 = Math.min(x0, s.points[i]!);
      x1 = Math.max(x1, s.points[i]!);
      y0 = Math.min(y0, s.points[i + 1]!);
      y1 = Math.max(y1, s.points[i + 1]!);
    }
    return { x0, x1, y0, y1 };
  };
  const spans = new Map(strokes.map((s) => [s, span(s)]));
  const crosses = (bar: PenStroke, other: PenStroke) => {
    const [a, b] = [bar.points, other.points];
    for (let i = 0; i + 3 < a.length; i += 2)
      for (let j = 0; j + 3 < b.length; j += 2)
        if (meet(a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!, b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!)) return true;
    return false;
  };
  const secondary = (s: PenStroke) => {
    const b = spans.get(s)!;
    if (Math.max(b.x1 - b.x0, b.y1 - b.y0) < 0.1 * upem) return true;
    return !s.closed && b.y1 - b.y0 < 0.3 * (b.x1 - b.x0) && strokes.some((o) => o !== s && crosses(s, o));
  };
  const byStart = (a: PenStroke, b: PenStroke) => {
    // A joined letter's way in comes first and its way out last.
    if (a.entry !== b.entry) return a.entry ? -1 : 1;
    if (a.exit !== b.exit) return a.exit ? 1 : -1;
    const dx = a.points[0]! - b.points[0]!;
    return Math.abs(dx) > 0.15 * upem ? dx : b.points[1]! - a.points[1]!;
  };
  const second = new Set(strokes.filter(secondary));
  const out = strokes.filter((s) => !second.has(s)).sort(byStart);
  for (const s of [...second].sort(byStart)) {
    const b = spans.get(s)!;
    const middle = (b.x0 + b.x1) / 2;
    // After the last body stroke that starts left of its middle.
    let at = 0;
    for (let i = 0; i < out.length; i++) if (out[i]!.points[0]! <= middle) at = i + 1;
    out.splice(at, 0, s);
  }
  return { strokes: out, secondary: second };
}

/** Joins marked: a stroke that starts at the origin of a joined letter (the one before runs into it), or ends at its advance (it runs into the next). */
function withJoins(s: PenStroke, joins: JoinZone | null): PenStroke {
  if (!joins || s.closed) return s;
  const n = s.widths.length;
  return {
    ...s,
    entry: atOrigin(joins, s.points[0]!, s.points[1]!),
    exit: atAdvance(joins, s.points[2 * n - 2]!, s.points[2 * n - 1]!),
  };
}

/** Whether segments a-b and c-d cross. */
function meet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const side = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
  return (
    side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0 &&
    side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0
  );
}

/**
 * How well strokes give back the ink they were read from: the glyph and the strokes (discs of
 * each point's width swept along) filled into one bitmap, and the share of pixels inked by
 * either that both ink (intersection over union). `cells` returns the bitmap for a picture:
 * 1 glyph only, 2 strokes only, 3 both.
 */
export function strokeFit(
  outline: readonly PathCommand[],
  upem: number,
  strokes: readonly PenStroke[],
): { iou: number; w: number; h: number; x0: number; y0: number; cells: Uint8Array } {
  const scale = RES / upem;
  const grid = rasterise(flatten(outline, upem / RES / 4), scale);
  if (!grid) return { iou: strokes.length ? 0 : 1, w: 0, h: 0, x0: 0, y0: 0, cells: new Uint8Array(0) };
  const { w, h, x0, y0 } = grid;
  const cells = grid.ink.slice();
  const disc = (cx: number, cy: number, r: number) => {
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(h - 1, Math.ceil(cy + r)); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(w - 1, Math.ceil(cx + r)); x++)
        if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) cells[y * w + x]! |= 2;
  };
  for (const s of strokes) {
    const n = s.widths.length;
    for (let i = 0; i < n; i++) {
      const [ax, ay] = [s.points[2 * i]! * scale - x0, y0 - s.points[2 * i + 1]! * scale];
      const ra = (s.widths[i]! * scale) / 2;
      if (i === n - 1) {
        disc(ax, ay, ra);
        break;
      }
      const [bx, by] = [s.points[2 * i + 2]! * scale - x0, y0 - s.points[2 * i + 3]! * scale];
      const rb = (s.widths[i + 1]! * scale) / 2;
      const steps = Math.max(1, Math.ceil(hypot(bx - ax, by - ay) * 2));
      for (let k = 0; k < steps; k++) {
        const t = k / steps;
        disc(ax + t * (bx - ax), ay + t * (by - ay), ra + t * (rb - ra));
      }
    }
  }
  let [both, any] = [0, 0];
  for (const c of cells) {
    if (c) any++;
    if (c === 3) both++;
  }
  return { iou: any ? both / any : 1, w, h, x0, y0, cells };
}

/** Patches of ink (8-connected) in the polygons filled at RES pixels to the em. */
function inkPatches(polygons: Polygon[], upem: number): number {
  const grid = polygons.length ? rasterise(polygons, RES / upem) : null;
  return grid ? patches(grid.ink.length, grid.w, (p) => grid.ink[p] === 1).length : 0;
}

/**
 * Whether a hand joins its letters: for most of the pairs given (each two outlines, the second
 * `shift` font units along), the ink of the first runs into the ink of the second (the pair has
 * fewer patches of ink than its letters apart).
 */
export function joinsLetters(
  pairs: readonly { first: readonly PathCommand[]; second: readonly PathCommand[]; shift: number }[],
  upem: number,
): boolean {
  const tol = upem / RES / 4;
  let touching = 0;
  for (const p of pairs) {
    const a = flatten(p.first, tol);
    const b = flatten(p.second, tol).map((poly) => poly.map((v, i) => (i % 2 ? v : v + p.shift)));
    if (inkPatches([...a, ...b], upem) < inkPatches(a, upem) + inkPatches(b, upem)) touching++;
  }
  return pairs.length > 0 && touching * 2 > pairs.length;
}
