// The hand: seeded variation per letter, word, line and sheet, and fatigue that changes it
// slowly through a long document. Every effect reads its template setting and has an off switch
// (`enabled: false`); the streams are drawn in document order, so the same seed and the same
// input give the same positions, hence the same bytes.
import type { Sheet } from '../display-list.ts';
import { MODIFIER_LIMITS, type Style } from '../spec.ts';
import { hexRgb } from '../color.ts';
import { Random } from '../prng.ts';
import { round, sin } from '../numbers.ts';

type Modifiers = Style['modifiers'];

const DEG = Math.PI / 180;
const MM = 72 / 25.4;
/** Letters over which the writer tires to the full `fatigue.amount` (about 20 A4 pages at 18 pt). */
export const TIRING = 40_000;

/** How much larger a fully tired hand writes (at `fatigue.amount` 1): it writes looser more than larger. */
const GROWTH = 0.1;

/** `hex` lightened (t > 0) or darkened (t < 0) by |t|. */
function shade(hex: string, t: number): string {
  const out = hexRgb(hex).map((c) => Math.round(t >= 0 ? c + (255 - c) * t : c * (1 + t)));
  return `#${out.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The faintest a letter's ink gets, however the pressure and the pen's ink fall together. */
const INK_FLOOR = 0.6;

/** How much of a letter's variation follows its line's slow waves (the rest is its own). */
const FLOW = 0.7;

/** The modifiers with every setting at most its limit (a specification stored before the limits may ask for more). */
function withinLimits(m: Modifiers): Modifiers {
  const L = MODIFIER_LIMITS;
  const l = m.letters;
  const shapes = m.shapes ?? { enabled: l.enabled, amount: l.warp ?? 0 };
  return {
    ...m,
    letters: {
      ...l,
      rotation: Math.min(l.rotation, L.letters.rotation),
      scale: Math.min(l.scale, L.letters.scale),
      baseline: Math.min(l.baseline, L.letters.baseline),
      spacing: Math.min(l.spacing, L.letters.spacing),
    },
    shapes: { ...shapes, amount: Math.min(shapes.amount, L.shapes.amount) },
    words: {
      ...m.words,
      spacing: Math.min(m.words.spacing, L.words.spacing),
      size: Math.min(m.words.size, L.words.size),
    },
    lines: {
      ...m.lines,
      slope: Math.min(m.lines.slope, L.lines.slope),
      drift: Math.min(m.lines.drift, L.lines.drift),
      wobble: Math.min(m.lines.wobble, L.lines.wobble),
    },
  };
}

/**
 * How much a drawing departs from the font's outline, `t` tired (0: the outline itself). A tired
 * hand builds its letters more loosely: up to half as much again (in steps of 0.05, each a set of
 * drawings of its own), never past a drawing's reach.
 */
function shapesAt(m: Modifiers, t: number): number {
  const s = m.shapes!;
  if (!s.enabled) return 0;
  return t > 0 ? Math.min(1, Math.round(s.amount * (1 + 0.5 * t) * 20) / 20) : s.amount;
}

/** The most a document of `modifiers` departs from the font's outlines, at its most tired. */
export function mostShapes(modifiers: Modifiers): number {
  const m = withinLimits(modifiers);
  return shapesAt(m, tirednessAt(m, TIRING));
}

/**
 * A letter's share of the variations that follow its line's waves `from` to `to` (WAVE), at `x`
 * pt along the line: mostly the wave's, a little its own (`own`, by wave), into `out` (by wave).
 * Written, not returned: a number returned from a call the optimiser does not inline comes back
 * boxed, and a letter asks for five (garbage a letter).
 */
function flowsAt(
  waves: Float64Array,
  from: number,
  to: number,
  x: number,
  own: Float64Array,
  out: Float64Array,
): void {
  for (let i = from; i < to; i++) {
    const k = 4 * i;
    const swell = sin(waves[k]! * x + waves[k + 1]!);
    const ripple = sin(waves[k + 2]! * x + waves[k + 3]!);
    out[i] = FLOW * (0.7 * swell + 0.3 * ripple) + (1 - FLOW) * own[i]!;
  }
}

/**
 * Where each of a line's slow waves is in LineHand.waves: four numbers each, two sines (angular
 * frequency per pt and phase each), weighted 0.7 and 0.3.
 */
const WAVE = { dx: 0, baseline: 1, rotation: 2, size: 3, pressure: 4 } as const;

type Tired = { t: number; grow: number; lean: number; slope: number; gap: number; creep: number };
const NOT_TIRED: Tired = { t: 0, grow: 1, lean: 0, slope: 0, gap: 1, creep: 0 };

/** How tired the writer is after `letters` letters (0 up to `fatigue.amount` over TIRING letters). */
function tirednessAt(m: Modifiers, letters: number): number {
  return m.fatigue.enabled ? Math.min(m.fatigue.amount, 1) * Math.min(1, letters / TIRING) : 0;
}

/** How far (pt of the pressure wave) the hand moves on from one letter to the next. */
const PRESSURE_STEP = 9;

/** Letters (what tires the hand) in a character of prose, spaces included. */
const LETTERS_PER_CHARACTER = 0.83;

/**
 * The share of a line's width a tired hand can fill `letters` letters into the document: its
 * margin has crept right and it writes larger with wider gaps (the pen cannot wrap again), so
 * the layout wraps its lines that much narrower. 1 for a fresh hand.
 */
function lineShare(m: Modifiers, letters: number, width: number): number {
  const t = tirednessAt(m, letters);
  if (t === 0) return 1;
  // Growth of the letters and of the word gaps (a gap in about six letters of about half the size).
  const stretch = (1 + GROWTH * t) * (1 + 0.2 * t);
  return Math.max(0.5, (width - 12 * MM * t) / width / stretch);
}

/** How far into a document its layout is, so that a tired hand's lines are wrapped for it (lineShare). */
export class Tiring {
  private letters = 0;

  constructor(private readonly m: Modifiers) {}

  /** For the next paragraph: the share of `width` a line starting at its character `at` may fill. */
  shareFor(width: number): (at: number) => number {
    const before = this.letters;
    return (at) => lineShare(this.m, before + at * LETTERS_PER_CHARACTER, width);
  }

  /** The paragraph is laid out: its letters tire the hand. */
  wrote(paragraph: string): void {
    this.letters += paragraph.replace(/\s/g, '').length;
  }
}

/** The hand on one line: its offsets and slope, and the slow waves its letters follow. */
export interface LineHand {
  wobble: number;
  drift: number;
  slope: number;
  angle: number;
  /** Its slow waves, four numbers each, in the order of WAVE. */
  waves: Float64Array;
}

export interface GlyphHand {
  /** Slant added to the letter (a shear: x moves by `lean` times the height). */
  lean: number;
  /** Width of the letter against its height (a tired hand's letters loosen). */
  stretch: number;
  dx: number;
  dy: number;
  rotation: number;
  /** The letter's own size. */
  scale: number;
  /** The tired writer's growth, on every letter alike. */
  grow: number;
  /** Its word's size: the pen scales the word's letters and their spacing together. */
  wordScale: number;
  color: string;
  opacity: number;
}

/** A GlyphHand to fill (Handwriting.glyph). */
export function blankGlyphHand(): GlyphHand {
  return {
    lean: 0,
    stretch: 1,
    dx: 0,
    dy: 0,
    rotation: 0,
    scale: 1,
    grow: 1,
    wordScale: 1,
    color: '',
    opacity: 1,
  };
}

export class Handwriting {
  private readonly letters: Random;
  private readonly words: Random;
  private readonly lines: Random;
  private readonly ink: Random;
  private readonly sheets: Random;
  private readonly drawings: Random;
  private index = 0;
  /** The way this writer's lines tilt as they tire (per seed). */
  private readonly slopeSign: number;
  private word = { n: -2, scale: 1, dy: 0, color: '' };
  /** The ink in the pen: letters written since it was last dipped, and how many it holds this time. */
  private pen = { since: 0, holds: 0 };

  private readonly loosening: Random;
  /** The left margin's slow wave, and the lines written so far. */
  private readonly margin: { k: number; phase: number };
  private lineCount = 0;
  private readonly flowing: Random;
  private tiredAt: { index: number; tired: Tired } = { index: -1, tired: NOT_TIRED };
  /** The writer's slant (a shear), the same on every letter. */
  private readonly slant: number;

  private readonly m: Modifiers;
  private readonly tone: { k: number; phase: number; amp: number }[];
  /** Shades of the ink already mixed, by colour and step. */
  /** Each ink's shades by step (toneAt). */
  private readonly tones = new Map<string, Map<number, string>>();
  private readonly lastTone = { color: '', step: 0, tone: '' };
  /** A letter's own draws, and its share of each wave's variation, by wave (glyph): reused. */
  private readonly own = new Float64Array(5);
  private readonly flow = new Float64Array(5);

  constructor(
    modifiers: Modifiers,
    private color: string,
  ) {
    const m = withinLimits(modifiers);
    this.m = m;
    this.letters = new Random(m.seed, 'letters');
    this.words = new Random(m.seed, 'words');
    this.lines = new Random(m.seed, 'lines');
    this.ink = new Random(m.seed, 'ink');
    this.sheets = new Random(m.seed, 'sheets');
    this.drawings = new Random(m.seed, 'alternates');
    this.slopeSign = new Random(m.seed, 'fatigue').next() < 0.5 ? -1 : 1;
    this.loosening = new Random(m.seed, 'loosening');
    this.flowing = new Random(m.seed, 'flow');
    const margin = new Random(m.seed, 'margin');
    this.margin = { k: (2 * Math.PI) / (6 + 8 * margin.next()), phase: 2 * Math.PI * margin.next() };
    // The writer's own slant, per seed: most lean a little right, some stand upright or lean left.
    const writer = new Random(m.seed, 'writer');
    // The ink's colour drifts slowly along the writing, letter by letter: two waves, one over a
    // few words and one over a line or two.
    const tone = new Random(m.seed, 'tone');
    this.tone = [9 + 11 * tone.next(), 25 + 35 * tone.next()].map((period, i) => ({
      k: (2 * Math.PI) / period,
      phase: 2 * Math.PI * tone.next(),
      amp: i === 0 ? 0.4 : 0.6,
    }));
    this.slant = m.letters.enabled ? (m.letters.rotation / 2) * (0.1 * writer.next() - 0.025) : 0;
  }

  /** 1 at the start, growing to 1 + `fatigue.amount` as the writer tires: what every jitter is scaled by. */
  private fatigue(): number {
    return 1 + this.tired.t;
  }

  /**
   * How tired the writer is (`t`: 0 at the first letter, growing to `fatigue.amount` over the
   * first TIRING letters, about 20 A4 pages at 18 pt, then staying there; a card never tires the
   * hand), and what it does to the hand besides more of every jitter: the writing grows a little
   * (2 % at the default amount's end), leans further right, its lines slope further in the
   * writer's own direction, word gaps widen, the left margin creeps right, and the letters loosen:
   * each is stretched and slanted a little differently from the one before.
   */
  get tired(): Tired {
    // Tiredness changes slowly: worked out again every 64 letters.
    const step = this.index >> 6;
    if (this.tiredAt.index === step) return this.tiredAt.tired;
    const t = tirednessAt(this.m, step << 6);
    const tired = {
      grow: 1 + GROWTH * t,
      lean: 0.35 * t,
      slope: this.slopeSign * 1.5 * DEG * t,
      gap: 1 + 1.5 * t,
      creep: 12 * MM * t,
      t,
    };
    this.tiredAt = { index: step, tired };
    return tired;
  }

  /**
   * The hand on one letter of word `word`, `along` pt from the start of its line: baseline, size,
   * rotation and position follow the line's slow waves (neighbours move together, as a hand
   * does), with a little of each letter's own on top. Written into `hand`, which the pen reuses
   * from letter to letter.
   */
  glyph(word: number, along: number, line: LineHand, hand: GlyphHand): void {
    const f = this.fatigue();
    this.index++;
    if (word !== this.word.n) {
      const w = this.m.words;
      this.word = {
        n: word,
        scale: w.enabled ? 1 + w.size * this.words.soft() : 1,
        // Each word sits a little above or below its neighbours.
        dy: this.m.letters.enabled ? 0.3 * this.m.letters.baseline * this.words.soft() : 0,
        color: this.color,
      };
    }
    const l = this.m.letters;
    const on = l.enabled;
    const tired = this.tired;
    const w = line.waves;
    // The letter's own share of each variation, drawn in one go: a draw returned one at a time
    // from a call the optimiser did not inline came back as a boxed number, garbage a letter.
    const own = this.own;
    const flow = this.flow;
    if (tired.t > 0) this.loosening.softs(own, 2);
    hand.lean = this.slant + tired.lean + (tired.t > 0 ? 0.4 * tired.t * own[0]! : 0);
    hand.stretch = tired.t > 0 ? 1 + 0.4 * tired.t * own[1]! : 1;
    if (on) {
      // Drawn in the order of WAVE: dx, baseline, rotation, size.
      this.letters.softs(own, 4);
      flowsAt(w, WAVE.dx, WAVE.size + 1, along, own, flow);
    }
    // Tiredness loosens the letters' shapes, slant and baseline, not the spacing inside a word.
    hand.dx = on ? l.spacing * flow[WAVE.dx]! : 0;
    hand.dy = on ? l.baseline * f * flow[WAVE.baseline]! + this.word.dy : 0;
    hand.rotation = on ? l.rotation * DEG * f * flow[WAVE.rotation]! : 0;
    hand.scale = on ? 1 + l.scale * f * flow[WAVE.size]! : 1;
    hand.wordScale = this.word.scale;
    hand.grow = tired.grow;
    hand.color = this.toneAt(this.index);
    hand.opacity = 1;
    const k = this.m.ink;
    if (k.enabled) {
      // The ink: lighter where the hand eased off (a slow wave along the line, a little of each
      // letter's own) and as the pen runs dry; in steps of 5 % (fewer graphics states to write).
      // The pressure wave runs along the letters written, not the line: a space between two
      // words is no more of a change than the step from one letter to the next.
      own[WAVE.pressure] = this.ink.signed();
      flowsAt(w, WAVE.pressure, WAVE.pressure + 1, this.index * PRESSURE_STEP, own, flow);
      const light = 0.5 + 0.5 * flow[WAVE.pressure]!;
      // How far the pen has run dry, to the power 1.5 (as r·√r: a power of 1.5 cost a tenth of a letter's hand).
      const run = this.pen.holds > 0 ? Math.min(1, this.pen.since / this.pen.holds) : 0;
      const dry = run * Math.sqrt(run);
      const ink = (1 - 0.3 * k.pressure * light) * (1 - 0.4 * (k.flow ?? 0) * dry);
      hand.opacity = round(Math.max(INK_FLOOR, ink) * 20) / 20;
      // Fresh from the ink: the first letters after a dip are darker, the ink pooled on the nib.
      if (this.pen.since < 3 && this.pen.holds > 0 && (k.flow ?? 0) > 0)
        hand.color = shade(hand.color, -0.25 * (k.flow ?? 0) * (1 - this.pen.since / 3));
      this.pen.since++;
    }
  }

  /** The ink's colour at the `i`th letter: a slow drift, the same from one letter to the next as across a space. */
  private toneAt(i: number): string {
    const k = this.m.ink;
    if (!k.enabled || k.colorVariation <= 0) return this.word.color;
    let t = 0;
    for (const w of this.tone) t += w.amp * sin(w.k * i + w.phase);
    // In steps of 2 %: fewer distinct inks to write.
    const step = round(k.colorVariation * 12.5 * t) / 50;
    // The tone drifts slowly: most letters have the one before's.
    const last = this.lastTone;
    if (last.color === this.word.color && last.step === step) return last.tone;
    return this.retone(step);
  }

  /** The ink's colour `step` from the word's (shade's steps, each worked out once). */
  private retone(step: number): string {
    let tones = this.tones.get(this.word.color);
    if (tones === undefined) {
      tones = new Map();
      this.tones.set(this.word.color, tones);
    }
    let tone = tones.get(step);
    if (tone === undefined) {
      tone = shade(this.word.color, step);
      tones.set(step, tone);
    }
    const last = this.lastTone;
    last.color = this.word.color;
    last.step = step;
    last.tone = tone;
    return tone;
  }

  /**
   * At a line's start: a pen that has written what it holds is dipped again (the ink runs full,
   * and the next dip lasts 60 to 220 letters). Never inside a line, where the fresh ink would
   * stand next to the faded as a step; a pen that runs out before the line ends writes on at its
   * faintest. With `flow` off the pen never runs dry.
   */
  private dip(): void {
    if (!this.m.ink.enabled || !this.m.ink.flow) return;
    if (this.pen.holds > 0 && this.pen.since < this.pen.holds) return;
    this.pen = { since: 0, holds: 60 + Math.floor(160 * this.ink.next()) };
  }

  /** Writes on in another colour (a block's own); the next word takes it. */
  setInk(color: string): void {
    if (color === this.color) return;
    this.color = color;
    this.word.n = -2;
  }

  /** The ink of the current word, for lines drawn with the same pen. */
  get inkColor(): string {
    return this.color;
  }

  /** Whether letters take the font's alternate drawings (letter effects and alternates on). */
  get alternates(): boolean {
    return this.m.letters.enabled && this.m.letters.alternates;
  }

  /** How much each drawing of a letter departs from the font's outline (0: the outline itself). */
  get shapes(): number {
    return shapesAt(this.m, this.tired.t);
  }

  /** A whole number below `count`, from a stream of its own, so that dealing drawings leaves every other effect where it was. */
  pick(count: number): number {
    return this.drawings.int(count);
  }

  /** Extra pt for one word gap. */
  space(size: number): number {
    const w = this.m.words;
    const gap = this.tired.gap;
    return (w.enabled ? w.spacing * size * 0.25 * this.words.soft() : 0) + (gap - 1) * size * 0.25;
  }

  line(): LineHand {
    this.dip();
    const l = this.m.lines;
    const tired = this.tired;
    const wobble = tired.creep;
    // The left margin wanders slowly from line to line (a wave over 6 to 14 lines), a little of
    // each line's own on top.
    const wander = Math.sin(this.margin.k * this.lineCount++ + this.margin.phase);
    // Drawn baseline, size, rotation, dx, pressure, as they always were (the same seed, the same waves).
    const waves = new Float64Array(20);
    this.wave(waves, WAVE.baseline);
    this.wave(waves, WAVE.size);
    this.wave(waves, WAVE.rotation);
    this.wave(waves, WAVE.dx);
    this.wave(waves, WAVE.pressure);
    if (!l.enabled) return { wobble, drift: 0, slope: Math.tan(tired.slope), angle: tired.slope, waves };
    const f = this.fatigue();
    const angle = l.slope * DEG * f * this.lines.soft() + tired.slope;
    return {
      wobble: wobble + l.wobble * MM * f * (0.75 * wander + 0.25 * this.lines.soft()),
      drift: l.drift * MM * f * this.lines.soft(),
      slope: Math.tan(angle),
      angle,
      waves,
    };
  }

  /** A slow wave along a line (a long swell and a shorter ripple, between -1 and 1), drawn into its place in `into`. */
  private wave(into: Float64Array, wave: number): void {
    const r = this.flowing;
    const at = 4 * wave;
    into[at] = (Math.PI * 2) / (150 + 250 * r.next());
    into[at + 1] = r.next() * Math.PI * 2;
    into[at + 2] = (Math.PI * 2) / (45 + 75 * r.next());
    into[at + 3] = r.next() * Math.PI * 2;
  }

  sheet(): Sheet {
    const p = this.m.paper;
    const seed = Math.floor(this.sheets.next() * 1_000_000);
    const bleed = this.m.ink.enabled ? (this.m.ink.bleed ?? 0) : 0;
    const pool = this.m.ink.enabled ? this.m.ink.pressure : 0;
    const dry = this.m.ink.enabled ? (this.m.ink.flow ?? 0) : 0;
    return p.enabled
      ? {
          tilt: p.tilt * this.sheets.signed(),
          shadow: p.shadow,
          texture: p.texture,
          bleed,
          pool,
          dry,
          scanner: p.scanner,
          seed,
        }
      : { tilt: 0, shadow: 0, texture: 0, bleed, pool, dry, scanner: false, seed };
  }

  /** What the ink does to each drawing of a letter: pressure within its strokes, and pools of ink. */
  get inkShape(): { pressure: number; blots: number } {
    const k = this.m.ink;
    return k.enabled ? { pressure: k.pressure, blots: k.blots ?? 0 } : { pressure: 0, blots: 0 };
  }
}
