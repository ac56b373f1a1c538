// Glyph drawings: the same letter written twice is never the same shape. A drawing is the
// outline under a smooth, seeded deformation: the letter a little wider or narrower, taller or
// shorter, more or less slanted; a low-frequency displacement field over it (a few sine waves
// longer than the letter, so strokes bend and never kink); and its separate pen strokes (the dot
// of an i, a detached bar) shifted a little against each other, as a pen lifted and set down
// again. A counter (the hole of an o) moves with the stroke around it. Each glyph has DRAWINGS
// of them in a hand, the same in every document (a thread builds them once); the document's seed
// deals them out, so that none repeats within a line.
import { drawingCache, KEPT_DRAWINGS } from '../display-list.ts';
import type { PathCommand } from '../geometry.ts';
import { Random } from '../prng.ts';
import { hypot } from '../numbers.ts';

/** Drawings per glyph besides the plain outline (drawing 0), shared among a letter's alternates. */
export const DRAWINGS = 16;

/**
 * The seed a hand's drawings are built in, whatever the document's: they are the writer's ways
 * of making each letter (docs/decisions.md, "A hand's drawings"), built once per thread and
 * reused by every document, which deals them in its own seed and varies each instance (its size,
 * turn, slant, place and ink).
 */
export const HAND_DRAWINGS_SEED = 1;

const round = (v: number) => Math.round(v); // font units: 1/1000 em or finer is invisible

const made = drawingCache<string>();

/** How a drawing is made: which one, how far it departs from the outline, and the pen's ink on it. */
export interface Drawing {
  /** 0: the font's outline; 1 and up: a drawing of the shapes modifier. */
  drawing: number;
  /** The shapes modifier's amount (0-1). */
  shapes: number;
  /** Pressure within strokes (0-1): each stroke's weight swells and thins along it. */
  pressure: number;
  /** Ink pooled where a stroke starts (0-1): how often, and how much. */
  blots: number;
  seed: number;
  /** The glyph, unique in the document (font and glyph id). */
  key: string;
  /** Its advance in font units: where a joined letter meets the next (connected hands). */
  advance?: number;
}

/** Path data of `outline` (font units, y up) as drawing `how` makes it; remembered per thread. */
export function drawingPath(outline: readonly PathCommand[], upem: number, how: Drawing): string {
  const id = `${how.key}/${how.drawing}/${how.shapes}/${how.pressure}/${how.blots}/${how.seed}/${how.advance ?? ''}`;
  let d = made.get(id);
  if (d === undefined) {
    d = drawn(inked(outline, upem, how), upem, how);
    if (made.size >= KEPT_DRAWINGS) made.clear();
    made.set(id, d);
  }
  return d;
}

type Point = (x: number, y: number) => [number, number];

/**
 * Waves across a letter in random directions, each longer than the letter: its wavelength 1 /
 * (shortest + spread · u) em, its amplitude `amp` · (0.5 + u). Bends a drawing smoothly, never a kink.
 */
export function slowWaves(
  r: Random,
  count: number,
  o: { upem: number; shortest: number; spread: number; amp: number },
): { kx: number; ky: number; phase: number; amp: number }[] {
  return Array.from({ length: count }, () => {
    const angle = r.next() * Math.PI * 2;
    const k = (Math.PI * 2 * (o.shortest + o.spread * r.next())) / o.upem;
    return {
      kx: k * Math.cos(angle),
      ky: k * Math.sin(angle),
      phase: r.next() * Math.PI * 2,
      amp: o.amp * (0.5 + r.next()),
    };
  });
}

function drawn(outline: readonly PathCommand[], upem: number, how: Drawing): string {
  const { drawing, seed, key } = how;
  const amount = how.shapes;
  if (drawing === 0 || amount <= 0) return pathData(outline, (x, y) => [x, y], []);
  const r = new Random(seed, `${key}/${drawing}`);
  const a = amount;
  // The letter's proportions and slant, about its own middle.
  const box = bounds(outline);
  const [cx, cy] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  const sx = 1 + 0.1 * a * r.signed();
  const sy = 1 + 0.07 * a * r.signed();
  const shear = 0.13 * a * r.signed();
  // Two waves per axis, each longer than the letter, in random directions.
  const waves = slowWaves(r, 4, { upem, shortest: 0.45, spread: 0.6, amp: upem * 0.022 * a });
  const join = joinWindow(outline, how.advance);
  const shaped: Point = (x, y) => {
    const u = x - cx;
    const v = y - cy;
    let px = cx + u * sx + v * shear;
    let py = cy + v * sy;
    for (let i = 0; i < waves.length; i++) {
      const w = waves[i]!;
      const s = w.amp * Math.sin(w.kx * x + w.ky * y + w.phase);
      if (i % 2 === 0) px += s;
      else py += s;
    }
    return [px, py];
  };
  // A joined letter keeps its joins where the font has them: the deformation fades out towards them.
  const field: Point = join
    ? (x, y) => {
        const [px, py] = shaped(x, y);
        const w = join(x);
        return [x + w * (px - x), y + w * (py - y)];
      }
    : shaped;
  // Pen lifts: every stroke that is not a counter moves a little on its own (the random numbers
  // are drawn all the same); in a joined letter, not a stroke that runs into a join.
  const boxes = splitContours(outline).map(bounds);
  const owners = strokesOf(boxes);
  const lifts = owners.map((owner, i) => {
    const lift = owner === i ? [upem * 0.03 * a * r.signed(), upem * 0.025 * a * r.signed()] : null;
    return lift && join && (join(boxes[i]![0]) < 1 || join(boxes[i]![2]) < 1) ? [0, 0] : lift;
  });
  const shifts = owners.map((owner) => lifts[owner] as [number, number]);
  return pathData(outline, field, shifts);
}

/** Path data with every point moved by `point`, and contour i by `shifts[i]` (after the field, so a lifted stroke keeps its shape). */
function pathData(
  outline: readonly PathCommand[],
  point: Point,
  shifts: readonly (readonly [number, number])[],
): string {
  let d = '';
  let contour = -1;
  let shift: readonly [number, number] = [0, 0];
  for (const c of outline) {
    if (c.type === 'M') {
      contour++;
      shift = shifts[contour] ?? [0, 0];
    }
    d += c.type;
    for (let i = 0; i + 1 < c.values.length; i += 2) {
      const [x, y] = point(c.values[i]!, c.values[i + 1]!);
      d += `${i ? ' ' : ''}${round(x + shift[0])} ${round(y + shift[1])}`;
    }
  }
  return d;
}

type Box = [number, number, number, number];

/**
 * For a letter of a connected hand (its ink reaches both its pen position and its advance, where
 * the letters before and after join it): how much of a deformation a point at x keeps, 0 at the
 * joins and beyond, rising smoothly to 1 a quarter of the advance inside. Null for a letter that
 * stands alone.
 */
function joinWindow(
  outline: readonly PathCommand[],
  advance: number | undefined,
): ((x: number) => number) | null {
  if (!advance || advance <= 0) return null;
  const box = bounds(outline);
  if (box[0] > 0 || box[2] < advance) return null;
  const ramp = advance / 4;
  return (x) => {
    const t = Math.min(1, Math.max(0, Math.min(x, advance - x) / ramp));
    return t * t * (3 - 2 * t);
  };
}

function bounds(outline: readonly PathCommand[]): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const c of outline) {
    for (let i = 0; i + 1 < c.values.length; i += 2) {
      const [x, y] = [c.values[i]!, c.values[i + 1]!];
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    }
  }
  return box[0] <= box[2] ? box : [0, 0, 0, 0];
}

/**
 * For each contour, the contour whose stroke it belongs to: itself, or for a counter the
 * smallest contour whose box holds its box (the bowl around the hole of an o or an e).
 */
function strokesOf(boxes: readonly Box[]): number[] {
  const area = (b: Box) => (b[2] - b[0]) * (b[3] - b[1]);
  const holds = (o: Box, i: Box) =>
    o[0] <= i[0] && o[1] <= i[1] && o[2] >= i[2] && o[3] >= i[3] && area(o) > area(i);
  const inner = boxes.map((b, i) => {
    let owner = i;
    for (let j = 0; j < boxes.length; j++) {
      if (j !== i && holds(boxes[j]!, b) && (owner === i || area(boxes[j]!) < area(boxes[owner]!))) owner = j;
    }
    return owner;
  });
  // A counter inside a counter (a ring in a ring) belongs to the outermost stroke around it;
  // containers are strictly larger, so the chain ends.
  return inner.map((o) => {
    let owner = o;
    while (inner[owner] !== owner) owner = inner[owner]!;
    return owner;
  });
}

/**
 * The outline as a pen with varying pressure draws it: every point moves along the outward
 * normal by a smooth weight field, so a stroke swells where the pen pressed and thins where it
 * eased off. The field is the drawing's own weight (some letters heavier, some lighter), a slow
 * wave across the letter, more weight on upright strokes than on the flat ones joining them (the
 * downstroke carries the pressure), and now and then a pool of ink where the first stroke starts.
 */
function inked(outline: readonly PathCommand[], upem: number, how: Drawing): readonly PathCommand[] {
  const { pressure, blots } = how;
  if (pressure <= 0 && blots <= 0) return outline;
  const r = new Random(how.seed, `${how.key}/${how.drawing}/ink`);
  // Every number is drawn whatever the settings, so that one setting leaves the others' pattern.
  const bias = 0.4 * r.signed();
  const angle = r.next() * Math.PI * 2;
  const k = (Math.PI * 2 * (0.5 + 0.7 * r.next())) / upem;
  const [kx, ky, phase] = [k * Math.cos(angle), k * Math.sin(angle), r.next() * Math.PI * 2];
  const pooled = r.next() < 0.35 * blots;
  const weight = upem * 0.02 * pressure;

  const contours = splitContours(outline);
  const points = contours.map(pointsOf);
  // Outward is to the left of travel on a clockwise contour (y up), as TrueType draws outer
  // contours; a font drawn the other way round has its largest contour counter-clockwise.
  let largest = 0;
  for (const p of points) {
    const a = signedArea(p);
    if (Math.abs(a) > Math.abs(largest)) largest = a;
  }
  const out = largest <= 0 ? 1 : -1;
  // The pool: where the largest contour reaches furthest left and up (a Latin stroke's start).
  let pool: [number, number] | null = null;
  if (pooled) {
    let best = Infinity;
    const p = points[points.reduce((b, q, i) => (q.length > points[b]!.length ? i : b), 0)] ?? [];
    for (let i = 0; i + 1 < p.length; i += 2) {
      const v = p[i]! - 0.4 * p[i + 1]!;
      if (v < best) [best, pool] = [v, [p[i]!, p[i + 1]!]];
    }
  }
  const poolAmount = upem * 0.03 * (0.5 + 0.5 * blots);
  // A joined letter's strokes meet the next letter's at the weight the font gives them.
  const join = joinWindow(outline, how.advance);
  const spread = 2 * (upem * 0.05) ** 2;

  const result: PathCommand[] = [];
  contours.forEach((contour, c) => {
    const p = points[c]!;
    const n = p.length / 2;
    const moved = new Float64Array(p.length);
    for (let i = 0; i < n; i++) {
      const [x, y] = [p[2 * i]!, p[2 * i + 1]!];
      // The tangent from the nearest distinct points before and after (the contour wraps).
      let [j, l] = [i, i];
      do j = (j - 1 + n) % n;
      while (j !== i && p[2 * j] === x && p[2 * j + 1] === y);
      do l = (l + 1) % n;
      while (l !== i && p[2 * l] === x && p[2 * l + 1] === y);
      let [tx, ty] = [p[2 * l]! - p[2 * j]!, p[2 * l + 1]! - p[2 * j + 1]!];
      const len = hypot(tx, ty) || 1;
      [tx, ty] = [tx / len, ty / len];
      let w = weight * (bias + 0.6 * Math.sin(kx * x + ky * y + phase) + 0.6 * (Math.abs(ty) - 0.5));
      // Thinning stops short of a hairline: a light stroke loses at most 60 % of the weight's swing.
      w = Math.max(w, -0.6 * weight);
      if (pool) w += poolAmount * Math.exp(-((x - pool[0]) ** 2 + (y - pool[1]) ** 2) / spread);
      if (join) w *= join(x);
      moved[2 * i] = x - out * ty * w;
      moved[2 * i + 1] = y + out * tx * w;
    }
    let at = 0;
    for (const cmd of contour) {
      const values = cmd.values.map((_, v) => moved[at + v]!);
      at += cmd.values.length - (cmd.values.length % 2);
      result.push({ type: cmd.type, values });
    }
  });
  return result;
}

function splitContours(outline: readonly PathCommand[]): PathCommand[][] {
  const contours: PathCommand[][] = [];
  for (const c of outline) {
    if (c.type === 'M' || contours.length === 0) contours.push([]);
    contours[contours.length - 1]!.push(c);
  }
  return contours;
}

/** Every point of a contour, control points included, as x, y pairs. */
function pointsOf(contour: readonly PathCommand[]): number[] {
  const p: number[] = [];
  for (const c of contour)
    for (let i = 0; i + 1 < c.values.length; i += 2) p.push(c.values[i]!, c.values[i + 1]!);
  return p;
}

/** Twice the signed area of the polygon through `p` (positive: counter-clockwise, y up). */
export function signedArea(p: readonly number[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i]! * p[j + 1]! - p[j]! * p[i + 1]!;
  }
  return a;
}
