// Pen-plotter writer: a page's handwriting as the lines a pen draws, for pen plotters and writing
// robots. Each letter's centrelines (kept by the layout, LayoutLimits.centrelines) placed as the
// hand placed the letter, one stroked path per pen-down movement in writing order: letter after
// letter, each letter's strokes walked as the pen makes them (pen-walk.ts: what touches is one
// pen-down, from where the letter is entered to where it is left). In a connected hand the letter
// run out of and the one run into are one movement, so a joined word is one path; what stands
// apart in it (dots, bars) follows the word, nearest first. No
// fills, one pen: the ink's colour and the hand's usual stroke width. The paper (ruling, grain,
// tilt, shadow) is the sheet in the machine and is not drawn. Lengths in pt, the size in mm; the
// root element says how often the pen goes down and how far it travels up between
// (`data-pen-downs`, `data-pen-up-mm`: penTravel reads them back).
import type { PenStroke } from '../geometry.ts';
import type { DisplayList, DisplayPage, GlyphDef, Matrix } from '../display-list.ts';
import { nearestOn, penWalks, polylineLength } from './pen-walk.ts';
import { hypot } from '../numbers.ts';

/** How far, in pen widths, the pen runs on from one joined letter into the next without a traced stroke between. */
const JOIN_REACH = 4;
/** How near, in pen widths, two letters of a word the hand does not join come for their lines to touch. */
const TOUCH = 1;

const n = (v: number) => (Math.round(v * 100) / 100).toString();

/** A pen-down movement: its points, x, y pairs in pt. */
type Movement = number[];

const to = (m: Movement): [number, number] => [m.at(-2)!, m.at(-1)!];

export function pageToStrokes(list: DisplayList, page: DisplayPage, opts: { color: string }): string {
  const paths: Movement[] = [];
  const widths: number[] = [];
  let move: Movement | null = null; // the movement being drawn
  let runs = false; // it runs out of the last letter into the next
  let later: Movement[] = []; // what stands apart in the joined word (dots, bars), drawn when it ends
  const lift = () => {
    if (move) paths.push(move);
    [move, runs] = [null, false];
  };
  const wordEnds = () => {
    const last = move ?? paths.at(-1);
    const end = last ? to(last) : null;
    lift();
    paths.push(...(end ? nearestFirst(later, end) : later));
    later = [];
  };
  /** A stroke placed by `m`: a movement of its own, or carried on from `on` (where the pen is). */
  const line = (s: PenStroke, m: Matrix, scale: number, on: Movement | null): Movement => {
    const pts = placed(s.points, m);
    for (const w of s.widths) widths.push(w * scale);
    if (!on) return pts;
    for (const v of pts) on.push(v);
    return on;
  };
  const glyphs = page.items.filter((it) => it.kind === 'glyph');
  for (const it of glyphs)
    if (!list.glyphs[it.ref]!.strokes)
      throw new Error(`glyph ${it.ref} was laid out without its centrelines`);
  // Where each letter meets the one before in its word, and whether the pen runs on between them:
  // where the hand joins them, or where their lines touch on the page (a script whose letters
  // join as they are shaped, as Arabic's do in a hand that does not join Latin letters).
  const meets = glyphs.map((it, g) => {
    const before = glyphs[g - 1];
    if (!before || (!it.joins && (it.word === undefined || it.word !== before.word))) return null;
    const [def, next] = [list.glyphs[before.ref]!, list.glyphs[it.ref]!];
    const at = joinPoint(def.strokes!, before.m, next.strokes!, it.m);
    if (!at) return null;
    // The wider of the two letters' pens (a small letter may be all hairline).
    const pen = Math.max(penOf(def), penOf(next));
    return it.joins || at.distance * def.scale <= TOUCH * pen ? at.point : null;
  });
  for (const [g, it] of glyphs.entries()) {
    const def = list.glyphs[it.ref]!;
    const joins = meets[g] !== null;
    // The letter's strokes as the pen takes them: in from the letter before first (at the point
    // of its strokes nearest the pen, when it is joined to that letter), out into the next last;
    // in a joined letter, what stands apart (a dot, a bar) after the word.
    const walked = penWalks(
      def.strokes!,
      joins && move ? unplaced(to(move), it.m) : undefined,
      meets[g + 1] ?? undefined,
    );
    const into = walked.filter((s) => s.entry);
    const apart = walked.filter((s) => !s.entry && !s.exit);
    const out = walked.filter((s) => s.exit && !s.entry);
    const joined = into.length > 0 || out.length > 0;
    const order = [...into, ...(joined ? [] : apart), ...out];
    // A letter joined to the one before: the pen runs on over the join when it is close to where
    // this letter's walk begins, and lifts rather than draw a line where there is no ink.
    runs = false;
    if (joins && move && order[0]) {
      const [x, y] = placed(order[0].points.slice(0, 2), it.m);
      const pen = median(order[0].widths) * def.scale;
      const [ex, ey] = to(move);
      runs = hypot(x! - ex, y! - ey) <= JOIN_REACH * pen;
    }
    if (!(joins && runs)) wordEnds();
    for (const s of order) {
      // The first stroke of a letter joined to the one before continues its movement.
      const on = s === order[0] && joins && runs;
      if (!on) lift();
      move = line(s, it.m, def.scale, on ? move : null);
    }
    if (joined) for (const s of apart) later.push(line(s, it.m, def.scale, null));
  }
  wordEnds();
  const width = median(widths) || 0.5;
  const drawn = paths.map((p) => atLeast(p, width));
  const mm = (pt: number) => n((pt * 25.4) / 72);
  // The pen's travel up: from where each path ends to where the next begins.
  let up = 0;
  for (let i = 1; i < drawn.length; i++)
    up += hypot(drawn[i]![0]! - drawn[i - 1]!.at(-2)!, drawn[i]![1]! - drawn[i - 1]!.at(-1)!);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${mm(page.width)}mm" height="${mm(page.height)}mm" viewBox="0 0 ${n(page.width)} ${n(page.height)}" data-pen-downs="${paths.length}" data-pen-up-mm="${mm(up)}">` +
    `<g fill="none" stroke="${opts.color}" stroke-width="${n(width)}" stroke-linecap="round" stroke-linejoin="round">` +
    drawn.map((p) => `<path d="${pathData(p)}"/>`).join('') +
    '</g></svg>'
  );
}

/** A polyline's path data (two points at least): a move to its first point, lines to the others. */
function pathData(pts: number[]): string {
  let d = `M${n(pts[0]!)} ${n(pts[1]!)}`;
  for (let i = 2; i < pts.length; i += 2) d += `L${n(pts[i]!)} ${n(pts[i + 1]!)}`;
  return d;
}

/**
 * A movement at least `width` long: a shorter one (a dot, a tick) is drawn as a line of the pen's
 * width through its middle, along it (across where it has no direction): a plotter's pen cannot
 * draw less, and a path shorter than its nib is lost or blotted.
 */
function atLeast(pts: number[], width: number): number[] {
  if (polylineLength(pts) >= width) return pts;
  const k = pts.length / 2;
  let [cx, cy] = [0, 0];
  for (let i = 0; i < k; i++) [cx, cy] = [cx + pts[2 * i]! / k, cy + pts[2 * i + 1]! / k];
  let [dx, dy] = [pts.at(-2)! - pts[0]!, pts.at(-1)! - pts[1]!];
  const d = hypot(dx, dy);
  [dx, dy] = d > 1e-6 ? [dx / d, dy / d] : [1, 0];
  const half = 0.51 * width;
  return [cx - half * dx, cy - half * dy, cx + half * dx, cy + half * dy];
}

/** Movements in the order that takes the pen the least way up each time: the nearest start first, from `at`. */
function nearestFirst(moves: Movement[], at: [number, number]): Movement[] {
  const left = moves.slice();
  const out: Movement[] = [];
  let [x, y] = at;
  while (left.length) {
    let best = 0;
    const way = (m: Movement) => hypot(m[0]! - x, m[1]! - y);
    for (let i = 1; i < left.length; i++) if (way(left[i]!) < way(left[best]!)) best = i;
    const [m] = left.splice(best, 1);
    out.push(m!);
    [x, y] = to(m!);
  }
  return out;
}

/** How often the pen goes down on a page, and how far it travels up between (mm). */
export interface PenTravel {
  penDowns: number;
  penUpMm: number;
}

/** The figures a page of strokes carries on its root element (pageToStrokes); null for another SVG. */
export function penTravel(svg: string): PenTravel | null {
  const head = svg.slice(0, svg.indexOf('>') + 1);
  const downs = /data-pen-downs="(\d+)"/.exec(head);
  const up = /data-pen-up-mm="([\d.]+)"/.exec(head);
  return downs && up ? { penDowns: Number(downs[1]), penUpMm: Number(up[1]) } : null;
}

/**
 * Where the letter placed by `nextM` joins the one placed by `m`: the point of its strokes that
 * comes nearest the first's, in the first's units (the two inks meet there).
 */
function joinPoint(
  mine: readonly PenStroke[],
  m: Matrix,
  theirs: readonly PenStroke[],
  nextM: Matrix,
): { point: [number, number]; distance: number } | null {
  const box = boxOf(mine);
  let best: { point: [number, number]; distance: number } | null = null;
  for (const s of theirs) {
    const pts = placed(s.points, nextM);
    for (let i = 0; i < pts.length; i += 2) {
      const p = unplaced([pts[i]!, pts[i + 1]!], m);
      // No line of this letter is nearer than its box.
      const dx = Math.max(box[0] - p[0], 0, p[0] - box[2]);
      const dy = Math.max(box[1] - p[1], 0, p[1] - box[3]);
      if (best && hypot(dx, dy) >= best.distance) continue;
      for (const t of mine) {
        const d = nearestOn(t.points, p[0], p[1]).distance;
        if (!best || d < best.distance) best = { point: p, distance: d };
      }
    }
  }
  return best;
}

const boxes = new WeakMap<readonly PenStroke[], [number, number, number, number]>();

/** The box around a drawing's lines: x and y least, then greatest (remembered per drawing). */
function boxOf(strokes: readonly PenStroke[]): [number, number, number, number] {
  let box = boxes.get(strokes);
  if (!box) {
    box = [
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (const s of strokes)
      for (let i = 0; i < s.points.length; i += 2) {
        box[0] = Math.min(box[0], s.points[i]!);
        box[1] = Math.min(box[1], s.points[i + 1]!);
        box[2] = Math.max(box[2], s.points[i]!);
        box[3] = Math.max(box[3], s.points[i + 1]!);
      }
    boxes.set(strokes, box);
  }
  return box;
}

/** A drawing's usual pen width on the page, in pt: the median of its strokes' widths. */
const penOf = (def: GlyphDef) => median(def.strokes!.flatMap((s) => s.widths)) * def.scale;

/** A point on the page in the units of the letter placed by `m` (its inverse). */
function unplaced([x, y]: readonly [number, number], m: Matrix): [number, number] {
  const det = m[0] * m[3] - m[1] * m[2];
  const [u, v] = [x - m[4], y - m[5]];
  return [(m[3] * u - m[2] * v) / det, (m[0] * v - m[1] * u) / det];
}

/** Points in font units (y up) placed on the page by an instance's matrix. */
function placed(points: readonly number[], m: Matrix): number[] {
  const out = new Array<number>(points.length);
  for (let i = 0; i < points.length; i += 2) {
    const [x, y] = [points[i]!, points[i + 1]!];
    out[i] = m[0] * x + m[2] * y + m[4];
    out[i + 1] = m[1] * x + m[3] * y + m[5];
  }
  return out;
}

function median(v: number[]): number {
  if (!v.length) return 0;
  const s = v.slice().sort((a, b) => a - b);
  return s[s.length >> 1]!;
}
