// Glyph drawings: the same letter written twice is never the same shape. A drawing is the
// outline under a smooth, seeded deformation: the letter a little wider or narrower, taller or
// shorter, more or less slanted; a low-frequency displacement field over it (a few sine waves
// longer than the letter, so strokes bend and never kink); and its separate pen strokes (the dot
// of an i, a detached bar) shifted a little against each other, as a pen lifted and set down
// again. A counter (the hole of an o) moves with the stroke around it. Each glyph has DRAWINGS
// of them per document seed; the pen deals them out so that none repeats within a line.
import type { PathCommand } from './fonts.ts';
import { Random } from './prng.ts';

/** Drawings per glyph besides the plain outline (drawing 0), shared among a letter's alternates. */
export const DRAWINGS = 16;

const round = (v: number) => Math.round(v); // font units: 1/1000 em or finer is invisible

const made = new Map<string, string>();

/** Path data of `outline` (font units, y up) in drawing `drawing` (0 = the outline itself); remembered per thread. */
export function drawingPath(
  outline: readonly PathCommand[],
  upem: number,
  drawing: number,
  amount: number,
  seed: number,
  key: string,
): string {
  const id = `${key}/${drawing}/${amount}/${seed}`;
  let d = made.get(id);
  if (d === undefined) {
    d = drawn(outline, upem, drawing, amount, seed, key);
    if (made.size >= 50_000) made.clear();
    made.set(id, d);
  }
  return d;
}

type Point = (x: number, y: number) => [number, number];

function drawn(
  outline: readonly PathCommand[],
  upem: number,
  drawing: number,
  amount: number,
  seed: number,
  key: string,
): string {
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
  const waves = Array.from({ length: 4 }, () => {
    const angle = r.next() * Math.PI * 2;
    const k = (Math.PI * 2 * (0.45 + 0.6 * r.next())) / upem;
    return {
      kx: k * Math.cos(angle),
      ky: k * Math.sin(angle),
      phase: r.next() * Math.PI * 2,
      amp: upem * 0.022 * a * (0.5 + r.next()),
    };
  });
  const field: Point = (x, y) => {
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
  // Pen lifts: every stroke that is not a counter moves a little on its own.
  const owners = strokesOf(outline);
  const lifts = owners.map((owner, i) =>
    owner === i ? [upem * 0.03 * a * r.signed(), upem * 0.025 * a * r.signed()] : null,
  );
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
function strokesOf(outline: readonly PathCommand[]): number[] {
  const boxes: Box[] = [];
  let current: PathCommand[] = [];
  for (const c of outline) {
    if (c.type === 'M' && current.length) {
      boxes.push(bounds(current));
      current = [];
    }
    current.push(c);
  }
  if (current.length) boxes.push(bounds(current));
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
