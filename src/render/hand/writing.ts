// A letter written with a pen along its strokes (centrelines.ts). Each drawing builds the letter
// afresh from the same strokes, seeded: ascenders and descenders longer or shorter, a loop larger
// or smaller, the ends of strokes run on or stopped short, a dot or a bar set down a little
// elsewhere, the whole letter a touch wider, taller or more slanted, with slow bends along its
// strokes. The ink follows the pen: the width along each stroke is the font's, heavier where the
// pen pulls down and lighter where it goes up, thinner where it moves fast and heavier where it
// slows, pooled where a downstroke lands or stops and at a sharp turn, tapered where an upstroke
// flicks in or off (not at a join, where the next letter carries on at full weight), never so
// heavy that a counter closes. The
// outline of each stroke (both sides of it and round ends) is what the PDF, SVG and PNG writers
// fill; strokes overlap where they meet and are filled as one (nonzero winding). Pure.
import type { PenStroke } from '../geometry.ts';
import { drawingCache, KEPT_DRAWINGS } from '../display-list.ts';
import type { LoadedFont } from '../text/fonts.ts';
import { Random } from '../prng.ts';
import { fitRing } from './fit.ts';
import { type Drawing, drawingPath, signedArea, slowWaves } from './variants.ts';
import { hypot } from '../numbers.ts';

const written = drawingCache<string>();
const printWidths = drawingCache<number>();
/**
 * Drawings reshaped for their width (drawingWidth) and not yet written, by glyph, drawing, shapes
 * and seed: letterPath builds on them rather than reshaping the letter again.
 */
const handedOn = new Map<string, PenStroke[]>();
/** More than a line's letters: what is not written by then was written before (letterPath's cache). */
const HANDED_ON = 512;

/**
 * Path data (font units, y up) of a letter as drawing `how` writes it: along its strokes where
 * they carry its shape (LoadedFont.strokes), else its outline warped (variants.ts). Remembered
 * per thread.
 */
export function letterPath(font: LoadedFont, gid: number, how: Drawing): string {
  // With no shape of its own and no pressure, the letter is the font's (typeset, not written).
  const plain = how.drawing === 0 && how.pressure <= 0 && how.blots <= 0;
  const strokes = plain ? null : font.strokes(gid);
  if (!strokes) return drawingPath(font.outline(gid), font.upem, how);
  const id = `${how.key}/${how.drawing}/${how.shapes}/${how.pressure}/${how.blots}/${how.seed}`;
  let d = written.get(id);
  if (d === undefined) {
    const drawing = strokeDrawing(font, how);
    const shapedId = `${how.key}/${how.drawing}/${how.shapes}/${how.seed}`;
    const shaped = handedOn.get(shapedId);
    handedOn.delete(shapedId);
    d = strokesPath(pressed(varied(strokes, drawing, shaped), drawing), FIT * font.upem);
    if (written.size >= KEPT_DRAWINGS) written.clear();
    written.set(id, d);
  }
  return d;
}

/**
 * The centrelines of a letter as drawing `how` builds it, in writing order (font units, y up):
 * what a pen plotter draws. Every letter has them, also one whose outline the pen does not write
 * (its strokes do not carry its shape); not remembered (the pen asks once per drawing).
 */
export function letterStrokes(font: LoadedFont, gid: number, how: Drawing): PenStroke[] {
  // A letter whose outline the pen does not write keeps the font's width (drawingWidth).
  const drawing = strokeDrawing(font, how);
  return varied(font.centrelines(gid), font.strokes(gid) ? drawing : { ...drawing, fontWidth: true });
}

function strokeDrawing(font: LoadedFont, how: Drawing): StrokeDrawing {
  return {
    drawing: how.drawing,
    shapes: how.shapes,
    pressure: how.pressure,
    blots: how.blots,
    seed: how.seed,
    key: how.key,
    upem: font.upem,
    xHeight: font.reach.x ?? font.upem / 2,
    heavy: heavinessOf(font),
    joined: font.joined,
  };
}

/** A pen's width against the x-height (LoadedFont.pen) at which a hand's drawings depart by the amounts in reshaped as given. */
const FINE_PEN = 0.11;
/** The most a heavy pen's drawings depart by against a fine one's. */
const HEAVIEST = 1.5;

/**
 * How much more a hand's drawings depart from the font's letter than a fine pen's: in proportion
 * to its pen's width, from 1 to HEAVIEST. A thick stroke covers a move that a fine one shows, so
 * two instances of a word in a heavy hand differ as visibly as in a fine one.
 */
function heavinessOf(font: LoadedFont): number {
  // The pen asks for it a few times a letter, nearly always of the font it asked last.
  if (font !== heaviness.font) {
    heaviness.font = font;
    heaviness.of = font.joined ? 1 : Math.min(HEAVIEST, Math.max(1, (font.pen ?? FINE_PEN) / FINE_PEN));
  }
  return heaviness.of;
}
const heaviness: { font: LoadedFont | null; of: number } = { font: null, of: 1 };

/**
 * How much wider (above 1) or narrower drawing `how` writes the letter than the font: the pen sets
 * the letters after it that much further on or closer (Pen.write), so a narrow drawing leaves no
 * gap in its word. 1 for the font's own drawing and a letter written by its outline (no
 * strokes). A connected hand's letters vary too: a join's end is widened with the letter, and the
 * letter after it meets it where it is drawn (Pen.write).
 */
export function drawingWidth(font: LoadedFont, gid: number, how: Drawing): number {
  const strokes = how.drawing === 0 || how.shapes <= 0 ? null : font.strokes(gid);
  if (!strokes) return 1;
  if (!font.joined) {
    // Remembered per thread: it builds the drawing (a card's own memo holds one shapes amount).
    const id = `${how.key}/${how.drawing}/${how.shapes}/${how.seed}`;
    let w = printWidths.get(id);
    if (w === undefined) {
      const shaped = reshaped(strokes, strokeDrawing(font, how));
      w = printWidth(strokes, shaped, font.advance(gid));
      // The pen asks a line's widths before it writes its letters: letterPath builds on it.
      if (handedOn.size >= HANDED_ON) handedOn.clear();
      handedOn.set(id, shaped);
      if (printWidths.size >= KEPT_DRAWINGS) printWidths.clear();
      printWidths.set(id, w);
    }
    return w;
  }
  return widthOf(new Random(how.seed, `${how.key}/${how.drawing}/strokes`), how.shapes, heavinessOf(font));
}

/**
 * A drawing's width against the font's, as the first draw of its stream: up to WIDTH × shapes ×
 * `heavy` wider, half that narrower (a narrower letter's counters close sooner: its strokes keep
 * their width); no more above WIDEST_AT shapes.
 */
const widthOf = (r: Random, shapes: number, heavy: number) => {
  const u = r.signed();
  return 1 + WIDTH * Math.min(shapes, WIDEST_AT) * heavy * (u < 0 ? u / 2 : u);
};

/** How much wider a drawing may be than the font's letter, per unit of shapes (30 % at the default 0.5, 15 % narrower). */
const WIDTH = 0.6;
/**
 * The shapes amount past which letters vary their widths no more: a letter a third wider still
 * reads as itself, but a line of them at the top of every modifier crowds past reading (the OCR
 * test in test/e2e/legibility.test.ts).
 */
const WIDEST_AT = 0.5;

export interface StrokeDrawing {
  /** 0: the strokes as read from the font; 1 and up: a drawing of the shapes modifier. */
  drawing: number;
  /** The shapes modifier's amount (0-1): how far a drawing's construction departs. */
  shapes: number;
  /** Pressure within strokes (0-1): the pen's weight follows its direction and its landing. */
  pressure: number;
  /** Ink pooled where the first stroke starts (0-1): how often, and how much. */
  blots?: number;
  seed: number;
  /** The glyph, unique in the document (font and glyph id). */
  key: string;
  upem: number;
  /** The hand's x-height (font units): above it is an ascender, below the baseline a descender. */
  xHeight: number;
  /** The letter keeps the font's width (one the pen writes by its outline, not its strokes). */
  fontWidth?: boolean;
  /** How much more than a fine pen's the drawing departs (heavinessOf); 1 where not given. */
  heavy?: number;
  /** A connected hand's letter: its joins must meet, so its height and bends vary less (PRINT_BUILD). */
  joined?: boolean;
}

/**
 * How far a drawing's height and slant depart (shares) and its bends (font sizes), per unit of
 * shapes, in every hand.
 */
const BUILD = { height: 0.05, slant: 0.1, bend: 0.014 } as const;
/**
 * What a print hand's drawings depart by besides, per unit of shapes up to WIDEST_AT (more at the
 * top of every modifier crowds past reading). Not its slant: the bars and tops of two letters
 * slanted apart leave a gap that reads as a space. Not a connected hand's: its letters meet at
 * their joins, and more of it opens a join.
 */
const PRINT_BUILD = { height: 0.05, bend: 0.007 } as const;

/** Points of a round end: a half circle in this many steps. */
const CAP_STEPS = 6;
/** The heaviest the pen may make a stroke against the font's own width: a counter stays open. */
const MOST_WEIGHT = 1.2;

/** The strokes as drawing `how` writes them (the construction varied; centrelines and widths, font units). */
export function varied(
  strokes: readonly PenStroke[],
  how: StrokeDrawing,
  shaped: PenStroke[] = reshaped(strokes, how),
): PenStroke[] {
  if (how.drawing === 0 || how.shapes <= 0) return strokes.map((s) => ({ ...s }));
  return built(shaped, how);
}

/** The strokes' points moved as drawing `how` moves them: proportions, slant, reach, bends, lifts (each point kept). */
export function reshaped(strokes: readonly PenStroke[], how: StrokeDrawing): PenStroke[] {
  const { upem, xHeight } = how;
  if (how.drawing === 0 || how.shapes <= 0) return strokes.map((s) => ({ ...s }));
  const r = new Random(how.seed, `${how.key}/${how.drawing}/strokes`);
  // A heavy pen's drawings depart further (heavinessOf), a print hand's more (PRINT_BUILD): as
  // much more as at WIDEST_AT, no more above it.
  const heavy = how.heavy ?? 1;
  const most = Math.min(how.shapes, WIDEST_AT);
  const a = how.shapes + (heavy - 1) * most;
  const more = how.joined ? 0 : heavy * most;
  // The letter's width (drawingWidth: the pen spaces the letters after it by it), its height and slant.
  const sx = widthOf(r, how.shapes, heavy);
  const sy = 1 + (BUILD.height * a + PRINT_BUILD.height * more) * r.signed();
  const shear = BUILD.slant * a * r.signed();
  // Ascenders and descenders: how far past the x-height and below the baseline they reach.
  const up = 1 + 0.16 * a * r.signed();
  const down = 1 + 0.16 * a * r.signed();
  // Slow bends: two waves across the letter, longer than it.
  const waves = slowWaves(r, 2, {
    upem,
    shortest: 0.5,
    spread: 0.5,
    amp: upem * (BUILD.bend * how.shapes + PRINT_BUILD.bend * (how.joined ? 0 : most)),
  });
  const place = (x: number, y: number): [number, number] => {
    let v = y;
    if (v > xHeight) v = xHeight + (v - xHeight) * up;
    else if (v < 0) v *= down;
    let px = x + v * shear;
    let py = v * sy;
    px += waves[0]!.amp * Math.sin(waves[0]!.kx * x + waves[0]!.ky * y + waves[0]!.phase);
    py += waves[1]!.amp * Math.sin(waves[1]!.kx * x + waves[1]!.ky * y + waves[1]!.phase);
    return [px, py];
  };
  const drawn = strokes.map((s) => {
    const n = s.widths.length;
    // Each stroke's own draws, whatever kind it is, so that one stroke's kind leaves the others' pattern.
    const lift = [upem * 0.03 * a * r.signed(), upem * 0.025 * a * r.signed()];
    const runOn = [upem * 0.035 * a * r.signed(), upem * 0.035 * a * r.signed()];
    const loop = 1 + 0.1 * a * r.signed();
    let pts = s.points.slice();
    const small = extent(pts) < 0.12 * upem;
    // A loop larger or smaller about its middle; a dot or a short stroke set down elsewhere.
    if (s.closed) pts = scaled(pts, loop);
    if (small)
      for (let i = 0; i < pts.length; i += 2)
        [pts[i], pts[i + 1]] = [pts[i]! + lift[0]!, pts[i + 1]! + lift[1]!];
    // The ends run on or stop short (never a join's end: the next letter meets it there).
    if (!s.closed && n >= 2 && !small) {
      if (!s.entry) pts = extended(pts, runOn[0]!, true);
      if (!s.exit) pts = extended(pts, runOn[1]!, false);
    }
    const moved: number[] = [];
    for (let i = 0; i < pts.length; i += 2) moved.push(...place(pts[i]!, pts[i + 1]!));
    // A join stays where the font has it: its end point moves back to where it was.
    if (s.entry) [moved[0], moved[1]] = [s.points[0]!, s.points[1]!];
    if (s.exit) [moved[moved.length - 2], moved[moved.length - 1]] = [s.points.at(-2)!, s.points.at(-1)!];
    return { ...s, points: moved, widths: s.widths.slice() };
  });
  const kept = withinReach(strokes, drawn, shapesReachOf(heavy, how.shapes) * upem);
  // Wider or narrower from the pen position on, outside the reach (the letters after it make room).
  if (how.fontWidth) return kept;
  // A connected hand's letter is widened from its pen position, so that its join's end moves with
  // it (Pen.write). A print hand's drawing is set where the font's letter begins its ink and
  // widened from there: the space before and after it is the font's, whatever its construction
  // moved (a writer spaces a wide or a leaning letter as any other; drawingWidth).
  const [from, to] = how.joined ? [0, 0] : [inkSpan(kept)[0], inkSpan(strokes)[0]];
  return kept.map((s) => ({ ...s, points: s.points.map((v, i) => (i % 2 ? v : to + (v - from) * sx)) }));
}

/**
 * A print hand's drawing's advance against the font's: its ink as drawn (`shaped`: reshaped, set
 * where the font's letter begins its ink and widened) with the font's space after it.
 */
function printWidth(strokes: readonly PenStroke[], shaped: readonly PenStroke[], advance: number): number {
  if (advance <= 0) return 1;
  // Set where the font's letter begins its ink (reshaped): it ends this much further on.
  return 1 + (inkSpan(shaped)[1] - inkSpan(strokes)[1]) / advance;
}

/** The left and right of the ink of `strokes` (font units): their centrelines and half their widths. */
function inkSpan(strokes: readonly PenStroke[]): [number, number] {
  let [left, right] = [Infinity, -Infinity];
  for (const s of strokes)
    for (let i = 0; i < s.widths.length; i++) {
      const [x, h] = [s.points[2 * i]!, s.widths[i]! / 2];
      if (x - h < left) left = x - h;
      if (x + h > right) right = x + h;
    }
  return left <= right ? [left, right] : [0, 0];
}

/**
 * How a hand builds its letters differently from one drawing to the next, in amounts of its own
 * (each 0.35-1, drawn once per font): how often it leaves a stroke's lead-in or tail short, runs
 * past where it closed a bowl, and how freely it sets down a bar.
 */
interface Builds {
  trim: number;
  overrun: number;
  bar: number;
}

const builds = new Map<string, Builds>();

function buildsOf(font: string): Builds {
  let b = builds.get(font);
  if (!b) {
    const r = new Random(1, `${font}/builds`);
    const amount = () => 0.35 + 0.65 * r.next();
    b = { trim: amount(), overrun: amount(), bar: amount() };
    if (builds.size > 1000) builds.clear();
    builds.set(font, b);
  }
  return b;
}

/**
 * The drawing's construction, beyond its proportions: an open stroke's lead-in or tail written
 * shorter (never at a join), a bowl closed with a little run past its start, a bar (a short,
 * straight, level stroke: the t's, the f's) set at another angle and length. Each with the
 * hand's own odds (buildsOf), at shapes 0.5 and up as given, less below.
 */
export function built(strokes: PenStroke[], how: StrokeDrawing): PenStroke[] {
  if (how.drawing === 0 || how.shapes <= 0) return strokes;
  const r = new Random(how.seed, `${how.key}/${how.drawing}/builds`);
  const odds = buildsOf(how.key.slice(0, how.key.lastIndexOf(':')));
  const k = Math.min(1, 2 * how.shapes);
  const { upem } = how;
  return strokes.map((s) => {
    const n = s.widths.length;
    // Draws made for every stroke alike, so that one stroke's kind leaves the others' pattern.
    const [u1, u2, u3, u4] = [r.next(), r.next(), r.next(), r.next()];
    const [v1, v2] = [r.signed(), r.signed()];
    if (n < 4) return s;
    const along = arcLengths(s.points);
    const length = along[n - 1]!;
    if (s.closed) {
      // Run past the start: the first part of the bowl written over again. (Never left open: an
      // e opened where its pen starts reads as a c, an a or a g as a u or a q.)
      if (length < 0.25 * upem || u3 >= 0.4 * k * odds.overrun) return s;
      return overrun(s, along, length * (0.04 + 0.08 * u4));
    }
    const [x0, y0, x1, y1] = [s.points[0]!, s.points[1]!, s.points[2 * n - 2]!, s.points[2 * n - 1]!];
    const chord = hypot(x1 - x0, y1 - y0);
    if (chord > 0.92 * length && Math.abs(y1 - y0) < 0.3 * Math.abs(x1 - x0) && length < 0.6 * upem) {
      // A bar across a stem (a t's, an f's): turned a little about its middle, longer or
      // shorter. Not a stroke that only starts or ends at another (an r's shoulder).
      if (s.entry || s.exit || !crossed(strokes, s, along)) return s;
      return barred(s, 0.12 * k * odds.bar * v1, 1 + 0.18 * k * odds.bar * v2);
    }
    if (length < 0.3 * upem) return s;
    // A lead-in or a tail written shorter: up to an eighth of the stroke, never at a join, nor at
    // the end of an ascender or a descender (an h would read as an n, a g as an a).
    const { xHeight } = how;
    const inBody = (y: number) => y > -0.05 * xHeight && y < 1.08 * xHeight;
    const trims = (end: boolean, u: number) => !end && u < 0.4 * k * odds.trim;
    // Only a hook (the end turns away from the stroke's run): an e's bar or an l's stem is the
    // letter, not a lead-in.
    const [head, tail] = [length * (0.04 + 0.08 * u2), length * (0.04 + 0.08 * u4)];
    const from = trims(s.entry, u1) && inBody(y0) && turns(s.points, along, 0, head) ? head : 0;
    // A tail only where it flicks out along the baseline (an a's, an n's): the end of an r's
    // shoulder or a c's top is the letter.
    const flicks = y1 > -0.05 * xHeight && y1 < 0.35 * xHeight;
    const to =
      trims(s.exit, u3) && flicks && turns(s.points, along, length - tail, length) ? length - tail : length;
    return from > 0 || to < length ? cut(s, along, from, to) : s;
  });
}

/** Whether another of `strokes` passes through the middle of `bar` (its middle three fifths, `along`: its arc lengths). */
function crossed(strokes: readonly PenStroke[], bar: PenStroke, along: readonly number[]): boolean {
  const length = along.at(-1)!;
  for (let i = 0; i < bar.widths.length; i++) {
    if (along[i]! < 0.2 * length || along[i]! > 0.8 * length) continue;
    const [x, y] = [bar.points[2 * i]!, bar.points[2 * i + 1]!];
    for (const o of strokes) {
      if (o === bar) continue;
      for (let q = 0; q < o.widths.length; q++)
        if (hypot(o.points[2 * q]! - x, o.points[2 * q + 1]! - y) < (o.widths[q]! + bar.widths[i]!) / 2)
          return true;
    }
  }
  return false;
}

/** Whether the stroke turns by more than HOOK between arc lengths `from` and `to` (its direction there, against its end's). */
function turns(p: readonly number[], along: readonly number[], from: number, to: number): boolean {
  const dir = (t: number): number => {
    const i = segmentAt(along, t);
    return Math.atan2(p[2 * i + 1]! - p[2 * i - 1]!, p[2 * i]! - p[2 * i - 2]!);
  };
  // Directions a little inside each end of the span, so that a point exactly at an end does not decide.
  const [a, b] = [dir(from + 1e-6), dir(to - 1e-6)];
  const turn = Math.abs(((b - a + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
  return turn > HOOK;
}

/** The least turn (radians) of a stroke's end for it to be a hook the hand may leave short. */
const HOOK = (50 * Math.PI) / 180;

/** The segment (the index of its end point) that arc length `t` falls in (`along`: the arc lengths). */
function segmentAt(along: readonly number[], t: number): number {
  let i = 1;
  while (i < along.length - 1 && along[i]! < t) i++;
  return i;
}

/** The part of stroke `s` from arc length `from` to `to` (`along`: its arc lengths), an open stroke. */
function cut(s: PenStroke, along: readonly number[], from: number, to: number): PenStroke {
  const points: number[] = [];
  const widths: number[] = [];
  const at = (t: number) => {
    const i = segmentAt(along, t);
    const f = (t - along[i - 1]!) / (along[i]! - along[i - 1]! || 1);
    const p = s.points;
    points.push(
      p[2 * i - 2]! + f * (p[2 * i]! - p[2 * i - 2]!),
      p[2 * i - 1]! + f * (p[2 * i + 1]! - p[2 * i - 1]!),
    );
    widths.push(s.widths[i - 1]! + f * (s.widths[i]! - s.widths[i - 1]!));
  };
  at(from);
  for (let i = 0; i < along.length; i++)
    if (along[i]! > from && along[i]! < to) {
      points.push(s.points[2 * i]!, s.points[2 * i + 1]!);
      widths.push(s.widths[i]!);
    }
  at(to);
  return {
    ...s,
    points,
    widths,
    closed: false,
    entry: s.entry && from === 0,
    exit: s.exit && to === along.at(-1),
  };
}

/** A closed stroke written on past its start for `by` of its length: one open stroke. */
function overrun(s: PenStroke, along: readonly number[], by: number): PenStroke {
  const past = cut(s, along, 0, by);
  // The closed stroke repeats its first point last: carry on from there.
  return {
    ...s,
    closed: false,
    points: [...s.points, ...past.points.slice(2)],
    widths: [...s.widths, ...past.widths.slice(1)],
  };
}

/** A bar turned by `angle` (radians) about its middle and its length times `length`. */
function barred(s: PenStroke, angle: number, length: number): PenStroke {
  const n = s.widths.length;
  let [cx, cy] = [0, 0];
  for (let i = 0; i < n; i++) [cx, cy] = [cx + s.points[2 * i]! / n, cy + s.points[2 * i + 1]! / n];
  const [c, sn] = [Math.cos(angle) * length, Math.sin(angle) * length];
  const points = s.points.map((_, i) => {
    const [x, y] = [s.points[i - (i % 2)]! - cx, s.points[i - (i % 2) + 1]! - cy];
    return i % 2 === 0 ? cx + x * c - y * sn : cy + x * sn + y * c;
  });
  return { ...s, points };
}

/**
 * A drawing reaches at most this far past the letter's own ink on any side, in font sizes, at
 * shapes 1 (the pen keeps its lines apart and its words' ink apart by it).
 */
export const SHAPES_REACH = 0.06;

const shapesReachOf = (heavy: number, shapes: number) => SHAPES_REACH * shapes * heavy;

/** How far a drawing of `font`'s at `shapes` reaches past the letter's own ink on any side, in font sizes (SHAPES_REACH, heavinessOf). */
export const shapesReach = (font: LoadedFont, shapes: number): number =>
  shapesReachOf(heavinessOf(font), shapes);

/** The drawing pulled back towards the strokes as read, as far as it takes to stay within `most` of their ink on every side. */
function withinReach(read: readonly PenStroke[], drawn: PenStroke[], most: number): PenStroke[] {
  const ink = (list: readonly PenStroke[]) => {
    const b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const s of list)
      for (let i = 0; i < s.widths.length; i++) {
        const [x, y, h] = [s.points[2 * i]!, s.points[2 * i + 1]!, s.widths[i]! / 2];
        b[0] = Math.min(b[0]!, x - h);
        b[1] = Math.min(b[1]!, y - h);
        b[2] = Math.max(b[2]!, x + h);
        b[3] = Math.max(b[3]!, y + h);
      }
    return b;
  };
  const [r, d] = [ink(read), ink(drawn)];
  const over = Math.max(r[0]! - d[0]!, r[1]! - d[1]!, d[2]! - r[2]!, d[3]! - r[3]!);
  if (over <= most) return drawn;
  // Every point moved the same share of the way back: the drawing's shape, less of it.
  const k = most / over;
  return drawn.map((s, j) => ({
    ...s,
    points: s.points.map((v, i) => read[j]!.points[i]! + k * (v - read[j]!.points[i]!)),
  }));
}

/**
 * The widths along each stroke as the pen presses and moves: heavier down, lighter up; thinner
 * where it moves fast (a long straight run) and heavier where it slows (a bend), its speed
 * following the bend (pace); ink pooled where a downstroke lands or stops and at a sharp turn,
 * where the pen all but halts; tapered where a stroke flicks in or off (an upstroke's ends).
 */
export function pressed(strokes: readonly PenStroke[], how: StrokeDrawing): PenStroke[] {
  const p = how.pressure;
  const blots = how.blots ?? 0;
  const r = new Random(how.seed, `${how.key}/${how.drawing}/press`);
  const weight = 1 + 0.08 * p * r.signed();
  // Now and then the pen, set down, pools ink where the first stroke starts.
  const pooled = r.next() < 0.35 * blots;
  const pool = 0.55 * (0.5 + 0.5 * blots);
  return strokes.map((s, k) => {
    const blot = pooled && k === 0 && !s.closed && s.widths.length >= 2;
    if ((p <= 0 && !blot) || s.widths.length < 2) return s;
    // Where an end runs into another stroke of the letter, or back into its own (the bowl of an a
    // or an o that the stroke closes), the pen does not lift: no taper, no pool.
    const meets = [0, s.widths.length - 1].map((i) => touches(strokes, k, i, arcLengths(s.points)));
    const paced = p > 0 ? pace(s) : { ...s, speed: null, turns: [] };
    const n = paced.widths.length;
    const along = arcLengths(paced.points);
    const total = along[n - 1]! || 1;
    const phase = r.next() * Math.PI * 2;
    // A dot (a stroke hardly longer than it is wide) is pressed down, not drawn: no taper.
    const dot = total < 2 * Math.max(...paced.widths);
    // How an open stroke's ends are written: down into the paper (landing on or stopping at the
    // end of a downstroke) pools a little ink; an upstroke's ends flick, thinning.
    const downAt = (i: number, j: number) => {
      const dy = paced.points[2 * j + 1]! - paced.points[2 * i + 1]!;
      const len = hypot(paced.points[2 * j]! - paced.points[2 * i]!, dy) || 1;
      return dy / len;
    };
    const [lands, stops] = [-downAt(0, 1) > 0.5, -downAt(n - 2, n - 1) > 0.5];
    const ends = !s.closed && !dot;
    const [first, last] = [paced.widths[0]!, paced.widths[n - 1]!];
    const widths = paced.widths.map((w, i) => {
      // Direction here: down (y falling) presses, up eases.
      const j = Math.min(n - 1, i + 1);
      const q = Math.max(0, i - 1);
      const down = -downAt(q, j);
      let f =
        weight * (1 + 0.18 * p * down) * (1 + 0.06 * p * Math.sin(phase + (along[i]! / total) * Math.PI * 2));
      // Fast, thinner; slow, heavier (up to about a third of the pressure's amount either way).
      if (paced.speed) f *= 1 - SPEED_WEIGHT * p * Math.max(-0.6, Math.min(0.8, paced.speed[i]! - 1));
      // The pen all but halts at a sharp turn, and the ink gathers there.
      for (const turn of paced.turns)
        f *= 1 + TURN_POOL * p * turn.bend * Math.exp(-(((along[i]! - turn.at) / (0.8 * w)) ** 2));
      let end = 0;
      if (ends) {
        const t = along[i]! / total;
        const fromStart = along[i]! / (0.9 * first);
        const fromEnd = (total - along[i]!) / (0.9 * last);
        // Landing and lifting: an upstroke's first and last tenth thin towards its ends.
        const landing = s.entry || blot || meets[0] || lands ? 1 : taper(t / 0.12);
        const lifting = s.exit || meets[1] || stops ? 1 : taper((1 - t) / 0.12);
        f *= 1 - 0.45 * p * (1 - Math.min(landing, lifting));
        // Pooled ends go past the heaviest pressing (no counter is near an end that meets nothing).
        if (lands && !s.entry && !meets[0] && !blot) end = Math.max(end, Math.exp(-(fromStart ** 2)));
        if (stops && !s.exit && !meets[1]) end = Math.max(end, Math.exp(-(fromEnd ** 2)));
        // At a join the pen carries on into the next letter: the weight comes back to the font's,
        // which the other side of the join has too.
        const join = Math.min(s.entry ? taper(t / 0.12) : 1, s.exit ? taper((1 - t) / 0.12) : 1);
        f = 1 + (f - 1) * join;
      }
      const pooledInk = blot ? 1 + pool * Math.exp(-((along[i]! / (0.06 * total + 1e-9)) ** 2)) : 1;
      return w * Math.min(MOST_WEIGHT, f) * (1 + END_POOL * p * end) * pooledInk;
    });
    return { ...s, points: paced.points, widths };
  });
}

/** How much the pen's speed moves a stroke's width, per unit of pressure: fast thins, slow weighs. */
const SPEED_WEIGHT = 0.45;
/** Ink gathered at a sharp turn (a half turn, at pressure 1) and where a downstroke lands or stops. */
const TURN_POOL = 0.5;
const END_POOL = 0.35;
/** A turn this sharp (radians, within about two widths of the stroke) or more is where the pen halts. */
const SHARP_TURN = 1;

/**
 * A stroke with the pen's pace along it: points added near its ends and around its sharp turns
 * (where its width changes quickly), the speed at each point against the stroke's mean (the
 * two-thirds power law: the hand slows as the path bends, speed as the curvature to the minus
 * one third), and where it turns sharply (arc length, and the turn's share of a half turn).
 */
function pace(s: PenStroke): PenStroke & { speed: Float64Array; turns: { at: number; bend: number }[] } {
  const n = s.widths.length;
  const pts = s.points;
  // The curvature at each point: its turn over the mean of the segments beside it.
  const bend = new Float64Array(n);
  const curve = new Float64Array(n);
  for (let i = 1; i < n - 1; i++) {
    const [ax, ay] = [pts[2 * i]! - pts[2 * i - 2]!, pts[2 * i + 1]! - pts[2 * i - 1]!];
    const [bx, by] = [pts[2 * i + 2]! - pts[2 * i]!, pts[2 * i + 3]! - pts[2 * i + 1]!];
    const [la, lb] = [hypot(ax, ay), hypot(bx, by)];
    if (la === 0 || lb === 0) continue;
    bend[i] = Math.acos(Math.max(-1, Math.min(1, (ax * bx + ay * by) / (la * lb))));
    curve[i] = bend[i]! / ((la + lb) / 2);
  }
  if (n > 2) {
    curve[0] = s.closed ? curve[n - 2]! : curve[1]!;
    curve[n - 1] = s.closed ? curve[1]! : curve[n - 2]!;
  }
  // Where points go in: half a width and a width and a half from each end, a width either side of a sharp turn.
  const mean = s.widths.reduce((a, b) => a + b, 0) / n;
  const along = arcLengths(pts);
  const total = along[n - 1]!;
  const turns: { at: number; bend: number }[] = [];
  const cuts: number[] = [];
  if (!s.closed) cuts.push(0.5 * mean, 1.5 * mean, total - 1.5 * mean, total - 0.5 * mean);
  for (let i = 1; i < n - 1; i++) {
    const near = Math.min(along[i]! - along[i - 1]!, along[i + 1]! - along[i]!);
    if (bend[i]! < SHARP_TURN || (bend[i]! * mean) / near < 0.5) continue;
    turns.push({ at: along[i]!, bend: Math.min(1, bend[i]! / Math.PI) });
    cuts.push(along[i]! - mean, along[i]! + mean);
  }
  const at = cuts.filter((c) => c > 0.25 * mean && c < total - 0.25 * mean).sort((a, b) => a - b);
  const points: number[] = [];
  const widths: number[] = [];
  const k: number[] = [];
  let c = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const [a, b] = [along[i - 1]!, along[i]!];
      for (; c < at.length && at[c]! < b; c++) {
        if (at[c]! <= a || Math.min(at[c]! - a, b - at[c]!) < 0.2 * mean) continue;
        const f = (at[c]! - a) / (b - a);
        points.push(
          pts[2 * i - 2]! + f * (pts[2 * i]! - pts[2 * i - 2]!),
          pts[2 * i - 1]! + f * (pts[2 * i + 1]! - pts[2 * i - 1]!),
        );
        widths.push(s.widths[i - 1]! + f * (s.widths[i]! - s.widths[i - 1]!));
        k.push(curve[i - 1]! + f * (curve[i]! - curve[i - 1]!));
      }
    }
    points.push(pts[2 * i]!, pts[2 * i + 1]!);
    widths.push(s.widths[i]!);
    k.push(curve[i]!);
  }
  // Speed against the mean (weighted by length), a straight run's held to what a bend of a
  // radius of eight widths gives.
  const least = 1 / (8 * mean);
  const m = widths.length;
  const speed = new Float64Array(m);
  for (let i = 0; i < m; i++) speed[i] = (k[i]! + least) ** (-1 / 3);
  const length = arcLengths(points);
  let sum = 0;
  for (let i = 1; i < m; i++) sum += ((speed[i]! + speed[i - 1]!) / 2) * (length[i]! - length[i - 1]!);
  const average = length[m - 1]! > 0 ? sum / length[m - 1]! : 1;
  for (let i = 0; i < m; i++) speed[i] = speed[i]! / average;
  return { ...s, points, widths, speed, turns };
}

/**
 * Whether the `i`th point of stroke `own` (an end) lies on the ink of another stroke of the letter,
 * or on its own stroke further along it than the two widths next to the end (`along`: the
 * stroke's arc lengths).
 */
function touches(strokes: readonly PenStroke[], own: number, i: number, along: readonly number[]): boolean {
  const s = strokes[own]!;
  const x = s.points[2 * i]!;
  const y = s.points[2 * i + 1]!;
  const width = s.widths[i]!;
  for (let j = 0; j < strokes.length; j++) {
    const o = strokes[j]!;
    for (let q = 0; q < o.widths.length; q++) {
      if (j === own && Math.abs(along[q]! - along[i]!) < 2 * (width + o.widths[q]!)) continue;
      const reach = (o.widths[q]! + width) / 2;
      if (hypot(o.points[2 * q]! - x, o.points[2 * q + 1]! - y) < reach) return true;
    }
  }
  return false;
}

const taper = (t: number) => {
  const c = Math.max(0, Math.min(1, t));
  return c * c * (3 - 2 * c);
};

/**
 * How far (em) a stroke's outline may depart from the smooth curve through its sides: 1/16 mm at
 * 60 pt, a tenth of a pixel of a 300 dpi print at 18 pt.
 */
const FIT = 0.003;

/**
 * Path data (absolute, whole font units, y up) of the strokes' outlines: each stroke's two sides
 * and its round ends, within `tolerance` (font units) of the smooth curve through them.
 */
export function strokesPath(strokes: readonly PenStroke[], tolerance: number): string {
  let d = '';
  for (const s of strokes) for (const ring of outlineOf(s)) d += ringPath(ring, tolerance);
  return d;
}

/** The closed rings that outline one stroke, each anticlockwise (a closed stroke's inner ring clockwise: its hole). */
function outlineOf(s: PenStroke): number[][] {
  const n = s.widths.length;
  if (n === 1) return [circle(s.points[0]!, s.points[1]!, s.widths[0]! / 2)];
  const left: number[] = [];
  const right: number[] = [];
  const pts = s.points;
  const count = s.closed ? n - 1 : n; // a closed stroke repeats its first point last
  for (let i = 0; i < count; i++) {
    const [nx, ny] = normalAt(pts, i, count, s.closed);
    const h = s.widths[i]! / 2;
    left.push(pts[2 * i]! + nx * h, pts[2 * i + 1]! + ny * h);
    right.push(pts[2 * i]! - nx * h, pts[2 * i + 1]! - ny * h);
  }
  if (s.closed) {
    const outer = signedArea(left) >= signedArea(right) ? left : right;
    const inner = outer === left ? right : left;
    return [anticlockwise(outer), reversed(anticlockwise(inner))];
  }
  const ring: number[] = left.slice();
  ring.push(...cap(pts, n - 1, s.widths[n - 1]! / 2, false));
  for (let i = right.length - 2; i >= 0; i -= 2) ring.push(right[i]!, right[i + 1]!);
  ring.push(...cap(pts, 0, s.widths[0]! / 2, true));
  return [anticlockwise(ring)];
}

/** The unit normal (left of travel) at point i: the mean of the segments' on either side. */
function normalAt(p: readonly number[], i: number, count: number, closed: boolean): [number, number] {
  const seg = (a: number, b: number): [number, number] => {
    const dx = p[2 * b]! - p[2 * a]!;
    const dy = p[2 * b + 1]! - p[2 * a + 1]!;
    const len = hypot(dx, dy) || 1;
    return [-dy / len, dx / len];
  };
  const prev = i > 0 ? seg(i - 1, i) : closed ? seg(count - 1, 0) : null;
  const next = i < count - 1 ? seg(i, i + 1) : closed ? seg(i, 0) : null;
  if (!prev) return next!;
  if (!next) return prev;
  const [x, y] = [prev[0] + next[0], prev[1] + next[1]];
  const len = hypot(x, y);
  if (len < 1e-6) return next;
  // Longer at a bend, so the sides keep their distance (at most twice, at a sharp turn).
  const cos = (prev[0] * next[0] + prev[1] * next[1] + 1) / 2;
  const miter = 1 / Math.sqrt(Math.max(0.25, cos));
  return [(x / len) * miter, (y / len) * miter];
}

/** A half circle round the end at point i (from the left side to the right at the end; right to left at the start). */
function cap(p: readonly number[], i: number, r: number, start: boolean): number[] {
  const j = start ? 1 : i - 1;
  const dx = p[2 * i]! - p[2 * j]!;
  const dy = p[2 * i + 1]! - p[2 * j + 1]!;
  // Outward along the stroke at this end.
  const base = Math.atan2(dy, dx);
  const from = base + Math.PI / 2;
  const out: number[] = [];
  for (let k = 1; k < CAP_STEPS; k++) {
    const a = from - (Math.PI * k) / CAP_STEPS;
    out.push(p[2 * i]! + r * Math.cos(a), p[2 * i + 1]! + r * Math.sin(a));
  }
  return out;
}

function circle(x: number, y: number, r: number): number[] {
  const out: number[] = [];
  const steps = 2 * CAP_STEPS;
  for (let k = 0; k < steps; k++) {
    const a = (Math.PI * 2 * k) / steps;
    out.push(x + r * Math.cos(a), y + r * Math.sin(a));
  }
  return out;
}

function reversed(p: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = p.length - 2; i >= 0; i -= 2) out.push(p[i]!, p[i + 1]!);
  return out;
}

const anticlockwise = (p: number[]) => (signedArea(p) >= 0 ? p : reversed(p));

/**
 * A ring as a smooth closed curve: the quadratic spline from the middle of one side to the middle
 * of the next, each piece bent by the point between them (so the outline has no corners where
 * the centreline has points), written as the few cubics that stay within `tolerance` of it.
 */
function ringPath(p: readonly number[], tolerance: number): string {
  const pts: number[] = [];
  for (let i = 0; i < p.length; i += 2) {
    const [x, y] = [Math.round(p[i]!), Math.round(p[i + 1]!)];
    if (pts.length && pts.at(-2) === x && pts.at(-1) === y) continue;
    pts.push(x, y);
  }
  if (pts.length >= 4 && pts[0] === pts.at(-2) && pts[1] === pts.at(-1)) pts.length -= 2;
  const n = pts.length / 2;
  if (n < 3) return '';
  // The spline where each piece starts and half way along it.
  const spline: number[] = [];
  for (let i = 0; i < n; i++) {
    const [h, j] = [(i + n - 1) % n, (i + 1) % n];
    const [ax, ay] = [(pts[2 * h]! + pts[2 * i]!) / 2, (pts[2 * h + 1]! + pts[2 * i + 1]!) / 2];
    const [bx, by] = [(pts[2 * i]! + pts[2 * j]!) / 2, (pts[2 * i + 1]! + pts[2 * j + 1]!) / 2];
    spline.push(ax, ay, (ax + bx) / 4 + pts[2 * i]! / 2, (ay + by) / 4 + pts[2 * i + 1]! / 2);
  }
  const c = fitRing(spline, tolerance).map(Math.round);
  let d = `M${c[0]} ${c[1]}`;
  for (let i = 2; i < c.length; i += 6)
    d += `C${c[i]} ${c[i + 1]} ${c[i + 2]} ${c[i + 3]} ${c[i + 4]} ${c[i + 5]}`;
  return `${d}Z`;
}

/** Distance along the polyline to each point. */
function arcLengths(p: readonly number[]): number[] {
  const out = [0];
  for (let i = 2; i < p.length; i += 2)
    out.push(out.at(-1)! + hypot(p[i]! - p[i - 2]!, p[i + 1]! - p[i - 1]!));
  return out;
}

function extent(p: readonly number[]): number {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 2) {
    x0 = Math.min(x0, p[i]!);
    x1 = Math.max(x1, p[i]!);
    y0 = Math.min(y0, p[i + 1]!);
    y1 = Math.max(y1, p[i + 1]!);
  }
  return Math.max(x1 - x0, y1 - y0);
}

/** The points scaled by `k` about their middle. */
function scaled(p: readonly number[], k: number): number[] {
  let [cx, cy] = [0, 0];
  const n = p.length / 2;
  for (let i = 0; i < p.length; i += 2) [cx, cy] = [cx + p[i]! / n, cy + p[i + 1]! / n];
  return p.map((v, i) => (i % 2 ? cy + (v - cy) * k : cx + (v - cx) * k));
}

/** The stroke run on (by > 0) or stopped short (by < 0) at its start or its end, along its first or last segment. */
function extended(p: readonly number[], by: number, atStart: boolean): number[] {
  const n = p.length / 2;
  const [i, j] = atStart ? [0, 1] : [n - 1, n - 2];
  const dx = p[2 * i]! - p[2 * j]!;
  const dy = p[2 * i + 1]! - p[2 * j + 1]!;
  const len = hypot(dx, dy);
  if (len < 1e-6) return p.slice();
  // Stopping short never takes more than half the end segment.
  const d = Math.max(by, -len / 2);
  const out = p.slice();
  out[2 * i] = p[2 * i]! + (dx / len) * d;
  out[2 * i + 1] = p[2 * i + 1]! + (dy / len) * d;
  return out;
}
