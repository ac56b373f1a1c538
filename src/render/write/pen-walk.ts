// A letter's centrelines as a pen-plotter draws them: the strokes that touch one another (ends
// that meet, or an end that meets a stroke along its length) are one pen-down, walked as a pen
// walks a drawing it cannot lift from: every line once, and where that is not possible, the
// shortest lines drawn over again (a pen going back along its own ink, as a writer's does in an
// m's arches). The walk starts where the letter is entered from the one before and ends where it
// runs into the next, so that a joined word is one movement. Font units, pure.
import type { PenStroke } from '../geometry.ts';
import { hypot } from '../numbers.ts';

/** An edge of a letter's stroke graph: a run of a centreline between two nodes. */
interface Edge {
  points: number[];
  widths: number[];
  a: number;
  b: number;
  length: number;
}

/** A drawing's strokes made ready to walk: what every walk of it shares. */
interface Drawing {
  traced: PenStroke[];
  /** Ends closer than this are one node (half the pen's width). */
  reach: number;
  /** Where each stroke is met along its length by another's end. */
  cuts: number[][];
  lengths: number[];
  /** Its walks, by where they were entered and left ("/" for neither given). */
  walks: Map<string, PenStroke[]>;
}

const drawings = new WeakMap<readonly PenStroke[], Drawing>();
/** How many walks entered and left at given points a drawing keeps. */
const KEPT_WALKS = 64;

/**
 * The letter's strokes as pen-downs: one a connected piece, entry first and exit last (remembered
 * per drawing). `from`: where the pen is as it runs into the letter from the one before, and `to`:
 * where the letter joined to this one begins (font units, the letter's own): the walk enters at
 * the point of its strokes nearest `from` and leaves at the point nearest `to` (to half a pen's
 * width), wherever the tracing found the letter's ways in and out, or none.
 */
export function penWalks(
  strokes: readonly PenStroke[],
  from?: readonly [number, number],
  to?: readonly [number, number],
): PenStroke[] {
  if (strokes.length === 0) return [];
  let d = drawings.get(strokes);
  if (!d) {
    d = prepared(strokes);
    drawings.set(strokes, d);
  }
  const into = from ? nearestPoint(d, from) : null;
  const outOf = to ? nearestPoint(d, to) : null;
  const key = `${into ? `${into.stroke}@${into.along}` : ''}/${outOf ? `${outOf.stroke}@${outOf.along}` : ''}`;
  let out = d.walks.get(key);
  if (!out) {
    if (d.walks.size >= KEPT_WALKS) d.walks.clear();
    out = walk(d, into, outOf);
    d.walks.set(key, out);
  }
  return out;
}

function prepared(strokes: readonly PenStroke[]): Drawing {
  const reach = 0.5 * median(strokes.flatMap((s) => s.widths));
  // A stroke of one point (a dot the tracing found as a point) is a stroke from it to itself.
  const traced = strokes.map((s) =>
    s.points.length >= 4
      ? s
      : { ...s, points: [...s.points, ...s.points], widths: [...s.widths, ...s.widths] },
  );
  const lengths = traced.map((s) => polylineLength(s.points));
  // Where each stroke is met along its length by another's end: it is cut there.
  const cuts: number[][] = traced.map(() => []);
  for (let i = 0; i < traced.length; i++)
    for (const end of [0, traced[i]!.points.length - 2]) {
      const [x, y] = [traced[i]!.points[end]!, traced[i]!.points[end + 1]!];
      for (let j = 0; j < traced.length; j++) {
        if (j === i) continue;
        const near = nearestOn(traced[j]!.points, x, y);
        if (near.distance > reach) continue;
        if (near.along > reach && near.along < lengths[j]! - reach) cuts[j]!.push(near.along);
      }
    }
  return { traced, reach, cuts, lengths, walks: new Map() };
}

/** The point of a drawing's strokes nearest `p`: its stroke, and how far along it (to the nearest half pen width). */
function nearestPoint(d: Drawing, [x, y]: readonly [number, number]): { stroke: number; along: number } {
  let best = { stroke: 0, along: 0, distance: Number.POSITIVE_INFINITY };
  for (let i = 0; i < d.traced.length; i++) {
    const near = nearestOn(d.traced[i]!.points, x, y);
    if (near.distance < best.distance) best = { stroke: i, ...near };
  }
  // Within half a pen's width of an end, at the end (a cut there would make a line of no length).
  const length = d.lengths[best.stroke]!;
  const along = Math.round(best.along / d.reach) * d.reach;
  return { stroke: best.stroke, along: along <= d.reach ? 0 : along >= length - d.reach ? length : along };
}

function walk(
  d: Drawing,
  into: { stroke: number; along: number } | null,
  outOf: { stroke: number; along: number } | null,
): PenStroke[] {
  const { traced, reach, lengths } = d;
  // Where the pen comes in from the letter before and leaves for the next, where they are along
  // a stroke rather than at an end, cut it too.
  const cuts = d.cuts.map((c) => c.slice());
  for (const at of [into, outOf])
    if (at && at.along > reach && at.along < lengths[at.stroke]! - reach) cuts[at.stroke]!.push(at.along);
  // The edges, and their ends gathered into nodes (ends closer than the reach are one node).
  const nodes: [number, number][] = [];
  const nodeAt = (x: number, y: number) => {
    for (let n = 0; n < nodes.length; n++) if (hypot(nodes[n]![0] - x, nodes[n]![1] - y) <= reach) return n;
    nodes.push([x, y]);
    return nodes.length - 1;
  };
  const edges: Edge[] = [];
  let entryNode = -1;
  let exitNode = -1;
  // Where the pen comes in: the point nearest the pen where it is given, else the start of the
  // entry stroke nearest the letter's origin; where it leaves: the end of the exit stroke furthest along.
  const entry = into
    ? undefined
    : traced.filter((s) => s.entry).sort((p, q) => Math.abs(p.points[0]!) - Math.abs(q.points[0]!))[0];
  const exit = outOf
    ? undefined
    : traced.filter((s) => s.exit).sort((p, q) => q.points.at(-2)! - p.points.at(-2)!)[0];
  for (let i = 0; i < traced.length; i++) {
    const s = traced[i]!;
    const pieces = cutAt(s, cuts[i]!);
    for (const p of pieces) {
      const a = nodeAt(p.points[0]!, p.points[1]!);
      const b = nodeAt(p.points.at(-2)!, p.points.at(-1)!);
      edges.push({ ...p, a, b, length: polylineLength(p.points) });
    }
    if (s === entry) entryNode = nodeAt(s.points[0]!, s.points[1]!);
    if (s === exit) exitNode = nodeAt(s.points.at(-2)!, s.points.at(-1)!);
  }
  if (into) entryNode = nodeAt(...pointAlong(traced[into.stroke]!.points, into.along));
  if (outOf) exitNode = nodeAt(...pointAlong(traced[outOf.stroke]!.points, outOf.along));
  const out: PenStroke[] = [];
  for (const component of components(nodes.length, edges)) {
    const has = (n: number) => n >= 0 && component.nodes.has(n);
    const stroke = walkComponent(
      nodes,
      component.edges,
      has(entryNode) ? entryNode : -1,
      has(exitNode) ? exitNode : -1,
    );
    stroke.entry = has(entryNode);
    stroke.exit = has(exitNode);
    out.push(stroke);
  }
  // The piece the pen enters by first, the one it leaves by last.
  return out.sort((p, q) => Number(q.entry) - Number(p.entry) || Number(p.exit) - Number(q.exit));
}

/** The connected pieces of the graph: their nodes and edges. */
function components(count: number, edges: Edge[]): { nodes: Set<number>; edges: Edge[] }[] {
  const parent = Array.from({ length: count }, (_, i) => i);
  const find = (n: number): number => {
    while (parent[n] !== n) n = parent[n]!;
    return n;
  };
  for (const e of edges) parent[find(e.a)] = find(e.b);
  const byRoot = new Map<number, { nodes: Set<number>; edges: Edge[] }>();
  for (const e of edges) {
    const root = find(e.a);
    const c = byRoot.get(root) ?? { nodes: new Set<number>(), edges: [] };
    byRoot.set(root, c);
    c.nodes.add(e.a).add(e.b);
    c.edges.push(e);
  }
  return [...byRoot.values()];
}

/**
 * One walk over every edge of a connected piece, from `start` to `end` where given: the nodes an
 * odd number of edges meet that are not its ends are paired, closest first, and the edges of the
 * shortest way between each pair are walked twice (retraced); then every edge is taken once in
 * an Euler path (Hierholzer's algorithm).
 */
function walkComponent(nodes: [number, number][], edges: Edge[], start: number, end: number): PenStroke {
  const degree = new Map<number, number>();
  for (const e of edges) {
    degree.set(e.a, (degree.get(e.a) ?? 0) + 1);
    degree.set(e.b, (degree.get(e.b) ?? 0) + 1);
  }
  const odd = [...degree].filter(([, d]) => d % 2 === 1).map(([n]) => n);
  const left = (ns: number[]) => ns.reduce((m, n) => (nodes[n]![0] < nodes[m]![0] ? n : m));
  const right = (ns: number[]) => ns.reduce((m, n) => (nodes[n]![0] > nodes[m]![0] ? n : m));
  let [s, t] = [start, end];
  if (s < 0 && t < 0) {
    s = odd.length ? left(odd) : left([...degree.keys()]);
    const others = odd.filter((n) => n !== s);
    t = others.length ? right(others) : s;
  } else if (s < 0) {
    const others = odd.filter((n) => n !== t);
    s = others.length ? left(others) : t;
  } else if (t < 0) {
    const others = odd.filter((n) => n !== s);
    t = others.length ? right(others) : s;
  }
  // The nodes whose number of edges must change parity for a walk from s to t.
  const flip = new Set(odd);
  if (s !== t)
    for (const n of [s, t]) {
      if (flip.has(n)) flip.delete(n);
      else flip.add(n);
    }
  const all = edges.slice();
  while (flip.size > 1) {
    let best: { from: number; to: number; path: Edge[]; length: number } | null = null;
    for (const from of flip) {
      const ways = shortestWays(from, edges, nodes.length);
      for (const to of flip) {
        if (to === from) continue;
        const w = ways.get(to);
        if (w && (!best || w.length < best.length)) best = { from, to, path: w.path, length: w.length };
      }
    }
    if (!best) break;
    all.push(...best.path);
    flip.delete(best.from);
    flip.delete(best.to);
  }
  return eulerWalk(all, s, t !== s);
}

/** The shortest way along edges from `from` to every node: its edges and length (Dijkstra; a letter has few nodes). */
function shortestWays(
  from: number,
  edges: Edge[],
  count: number,
): Map<number, { path: Edge[]; length: number }> {
  const dist = new Array<number>(count).fill(Number.POSITIVE_INFINITY);
  const via = new Array<Edge | null>(count).fill(null);
  const done = new Array<boolean>(count).fill(false);
  dist[from] = 0;
  for (;;) {
    let n = -1;
    for (let i = 0; i < count; i++)
      if (!done[i] && dist[i]! < Number.POSITIVE_INFINITY && (n < 0 || dist[i]! < dist[n]!)) n = i;
    if (n < 0) break;
    done[n] = true;
    for (const e of edges) {
      if (e.a !== n && e.b !== n) continue;
      const m = e.a === n ? e.b : e.a;
      if (dist[n]! + e.length < dist[m]!) {
        dist[m] = dist[n]! + e.length;
        via[m] = e;
      }
    }
  }
  const out = new Map<number, { path: Edge[]; length: number }>();
  for (let to = 0; to < count; to++) {
    if (to === from || dist[to] === Number.POSITIVE_INFINITY) continue;
    const path: Edge[] = [];
    for (let n = to; n !== from; ) {
      const e = via[n]!;
      path.push(e);
      n = e.a === n ? e.b : e.a;
    }
    out.set(to, { path, length: dist[to]! });
  }
  return out;
}

/** Every edge once, from `s` (Hierholzer's algorithm), as one stroke: points joined end to end. */
function eulerWalk(edges: Edge[], s: number, open: boolean): PenStroke {
  const at = new Map<number, number[]>();
  edges.forEach((e, i) => {
    for (const n of [e.a, e.b]) {
      const list = at.get(n);
      if (list) list.push(i);
      else at.set(n, [i]);
    }
  });
  const used = new Array<boolean>(edges.length).fill(false);
  // The stack holds [node, edge taken into it, reversed]; finished steps are read back to front.
  const stack: [number, number, boolean][] = [[s, -1, false]];
  const steps: [number, boolean][] = [];
  while (stack.length) {
    const [n] = stack.at(-1)!;
    const list = at.get(n) ?? [];
    while (list.length && used[list.at(-1)!]) list.pop();
    const i = list.pop();
    if (i === undefined) {
      const [, e, reversed] = stack.pop()!;
      if (e >= 0) steps.push([e, reversed]);
      continue;
    }
    used[i] = true;
    const e = edges[i]!;
    const reversed = e.a !== n;
    stack.push([reversed ? e.a : e.b, i, reversed]);
  }
  steps.reverse();
  const points: number[] = [];
  const widths: number[] = [];
  for (const [i, reversed] of steps) {
    const e = edges[i]!;
    const n = e.widths.length;
    for (let k = 0; k < n; k++) {
      const j = reversed ? n - 1 - k : k;
      if (
        k === 0 &&
        points.length &&
        points.at(-2) === e.points[2 * j] &&
        points.at(-1) === e.points[2 * j + 1]
      )
        continue;
      points.push(e.points[2 * j]!, e.points[2 * j + 1]!);
      widths.push(e.widths[j]!);
    }
  }
  return { points, widths, closed: !open, entry: false, exit: false };
}

/** A stroke cut at the given lengths along it. */
function cutAt(s: PenStroke, at: number[]): { points: number[]; widths: number[] }[] {
  const marks = [...new Set(at.map((a) => Math.round(a)))].sort((a, b) => a - b);
  const pieces: { points: number[]; widths: number[] }[] = [];
  let points: number[] = [s.points[0]!, s.points[1]!];
  let widths: number[] = [s.widths[0]!];
  let along = 0;
  let m = 0;
  for (let i = 2; i < s.points.length; i += 2) {
    const [x0, y0, x1, y1] = [s.points[i - 2]!, s.points[i - 1]!, s.points[i]!, s.points[i + 1]!];
    const [w0, w1] = [s.widths[i / 2 - 1]!, s.widths[i / 2]!];
    const step = hypot(x1 - x0, y1 - y0);
    while (m < marks.length && marks[m]! <= along + step) {
      const t = step > 0 ? (marks[m]! - along) / step : 0;
      const [x, y, w] = [x0 + t * (x1 - x0), y0 + t * (y1 - y0), w0 + t * (w1 - w0)];
      points.push(x, y);
      widths.push(w);
      pieces.push({ points, widths });
      points = [x, y];
      widths = [w];
      m++;
    }
    points.push(x1, y1);
    widths.push(w1);
    along += step;
  }
  pieces.push({ points, widths });
  return pieces.filter((p) => p.points.length >= 4);
}

/** The point `along` a polyline, by length from its start. */
function pointAlong(points: number[], along: number): [number, number] {
  let walked = 0;
  for (let i = 2; i < points.length; i += 2) {
    const [x0, y0, x1, y1] = [points[i - 2]!, points[i - 1]!, points[i]!, points[i + 1]!];
    const step = hypot(x1 - x0, y1 - y0);
    if (walked + step >= along) {
      const t = step > 0 ? (along - walked) / step : 0;
      return [x0 + t * (x1 - x0), y0 + t * (y1 - y0)];
    }
    walked += step;
  }
  return [points.at(-2)!, points.at(-1)!];
}

/** The point of a polyline nearest (x, y): its distance, and how far along the polyline it lies. */
export function nearestOn(
  points: readonly number[],
  x: number,
  y: number,
): { distance: number; along: number } {
  let best = { distance: hypot(points[0]! - x, points[1]! - y), along: 0 };
  let along = 0;
  for (let i = 2; i < points.length; i += 2) {
    const [x0, y0, x1, y1] = [points[i - 2]!, points[i - 1]!, points[i]!, points[i + 1]!];
    const [dx, dy] = [x1 - x0, y1 - y0];
    const step = hypot(dx, dy);
    const t = step > 0 ? Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (step * step))) : 0;
    const distance = hypot(x0 + t * dx - x, y0 + t * dy - y);
    if (distance < best.distance) best = { distance, along: along + t * step };
    along += step;
  }
  return best;
}

export function polylineLength(points: readonly number[]): number {
  let length = 0;
  for (let i = 2; i < points.length; i += 2)
    length += hypot(points[i]! - points[i - 2]!, points[i + 1]! - points[i - 1]!);
  return length;
}

function median(v: number[]): number {
  if (!v.length) return 0;
  const s = v.slice().sort((a, b) => a - b);
  return s[s.length >> 1]!;
}
