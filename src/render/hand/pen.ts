// The pen: writes laid-out lines onto a page with the hand's variation on every glyph, and keeps
// the document's glyph outlines (each distinct outline or variant once). Shared by simple text
// (document.ts) and structured documents (flow.ts).
import { type DisplayList, type DisplayPage, drawingCache, type Item, type Matrix } from '../display-list.ts';
import { type Alternate, type LoadedFont, perFont } from '../text/fonts.ts';
import { blankGlyphHand, type Handwriting, type LineHand } from './handwriting.ts';
import { type Line, type LineGlyph, leastWordSpace } from '../text/text-layout.ts';
import { type Drawing, DRAWINGS, HAND_DRAWINGS_SEED } from './variants.ts';
import { drawingWidth, letterPath, letterStrokes, shapesReach } from './writing.ts';
import { cos as quickCos, hypot, sin as quickSin } from '../numbers.ts';

export interface LinePlacement {
  /** Left edge of the content box the line was laid out in, and its baseline. */
  left: number;
  baseline: number;
  size: number;
  /**
   * Faux bold for a font without a bold cut: each letter written twice, the second time this
   * fraction of the size to the right, as a pen going over its stroke again.
   */
  overstrike?: number;
  /**
   * How far the line's ink may reach above and below its baseline (pt): the hand's variation is
   * calmed, the whole line alike, until every letter stays inside (or where the letter itself,
   * written plainly, reaches further, no further than that). Lines that follow each other get
   * half the space between them each (roomOf), so they never collide.
   */
  room?: { above: number; below: number };
  /** The most the line's start may wander sideways (pt), where something is drawn close beside it (a table's rule). */
  wobble?: number;
}

/**
 * Baseline-to-baseline distance for lines of `size` in `font`: `lineHeight` times the size, but
 * never closer than the hand's letters reach plus a fifth of the size for it to move in. On ruled
 * paper (`rules`: the spacing) a whole number of rules, the nearest to the line height: lines
 * overlap where their ink does not (a tall letter under a low one is written shorter, down to
 * MOST_SHORTENED of its height: Pen.inkAbove), so a tall hand writes on every rule unless even
 * then its deepest descender would meet its tallest ascender. `shapes`: the most the document's
 * drawings depart (Handwriting.mostShapes), what they may add to the reach.
 */
export function linePitch(
  font: LoadedFont,
  size: number,
  lineHeight: number,
  rules: number | null,
  shapes = 1,
): number {
  const natural = size * lineHeight;
  const least = ((font.reach.ascent + font.reach.descent) / font.upem) * size + 0.2 * size;
  if (!rules) return Math.max(natural, least);
  // Ruled: the deepest descender over the tallest ascender, that one written shorter, with room
  // for the drawings' reach and a little clear space.
  const { ascent, descent } = font.reach;
  const tight =
    ((descent + MOST_SHORTENED * ascent) / font.upem + LINE_CLEAR + shapesReach(font, shapes)) * size;
  return rules * Math.max(1, Math.round(natural / rules), Math.ceil(tight / rules - 0.01));
}

/** Room above and below the baseline for lines of `size` following each other `pitch` apart: the letters' reach and half the space between. */
export function roomOf(font: LoadedFont, size: number, pitch: number): { above: number; below: number } {
  const [ascent, descent] = [(font.reach.ascent / font.upem) * size, (font.reach.descent / font.upem) * size];
  const free = Math.max(0, pitch - ascent - descent) / 2;
  return { above: ascent + free, below: descent + free };
}

/**
 * Where each glyph of a line goes before the line's variation is calmed to fit its room: one
 * array a figure, reused from line to line (an object a letter cost a dozen allocations, each of
 * its numbers one of its own, and the collector the time to find them dead).
 */
class Places {
  n = 0;
  g: LineGlyph[] = [];
  /** The ink of each glyph (its tone, and how opaque). */
  color: string[] = [];
  /** The drawing dealt to each glyph. */
  card: Card[] = [];
  private cap = 0;
  x = new Float64Array(0);
  /** The glyph's variation away from the baseline (drift, slope, its own), pt. */
  dy = new Float64Array(0);
  /** Its size against the plain size (its own, its word's, the tired hand's). */
  grow = new Float64Array(0);
  /** The size its position was spaced at (its word's and the tired hand's, not its own). */
  spaced = new Float64Array(0);
  /** Its turn, and the turn's cosine and sine with all of the variation kept. */
  angle = new Float64Array(0);
  cos = new Float64Array(0);
  sin = new Float64Array(0);
  /** The hand's slant and stretch on the glyph, and its ink's opacity (GlyphHand). */
  lean = new Float64Array(0);
  stretch = new Float64Array(0);
  opacity = new Float64Array(0);
  /** How far the letters before moved the glyph along the line (pt), and its drawing's width against the font's. */
  along = new Float64Array(0);
  wide = new Float64Array(0);

  /** How far the gaps between words were widened to keep their ink apart (pt, leastWordSpace). */
  pushed = 0;

  /** Empties the line, with room for `count` glyphs. */
  reset(count: number): void {
    this.n = 0;
    this.pushed = 0;
    if (count <= this.cap) return;
    const cap = Math.max(count, 2 * this.cap, 64);
    for (const k of FIGURES) this[k] = new Float64Array(cap);
    this.cap = cap;
  }
}
const FIGURES = [
  'x',
  'dy',
  'grow',
  'spaced',
  'angle',
  'cos',
  'sin',
  'lean',
  'stretch',
  'opacity',
  'along',
  'wide',
] as const;

/** The left, right and lowest point of each letter of a line, three numbers a letter. */
/**
 * In a connected hand, the letter before in the word (`word` -1: none): the next is set where
 * the font sets it after that letter, in that letter's frame (its final matrix `m`: size and
 * turn), held at the point where that letter runs out (`exitX`, `exitY`, font units, its
 * drawing `wide`), so that the pen's one movement has no gap and no step at the join.
 */
class JoinFrom {
  word = -1;
  m: Matrix = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
  advance = 0.5;
  exitX = 0.5;
  exitY = 0.5;
  wide = 0.5;
}

class Letters {
  n = 0;
  box = new Float64Array(3 * 128);

  add(left: number, right: number, bottom: number): void {
    if (3 * this.n + 3 > this.box.length) {
      const grown = new Float64Array(this.box.length * 2);
      grown.set(this.box);
      this.box = grown;
    }
    const at = 3 * this.n++;
    this.box[at] = left;
    this.box[at + 1] = right;
    this.box[at + 2] = bottom;
  }
}

export class Pen {
  readonly glyphs: DisplayList['glyphs'] = {};
  private readonly fontIndex = new Map<LoadedFont, number>();
  /** Each letter's drawings, dealt like cards: every one once before any comes again (by font, then glyph as shaped). */
  private readonly decks = new Map<LoadedFont, Map<number, Deck>>();
  /** This pen's number in the thread: the cards it deals carry their reference in its document under it (Card.pen). */
  private readonly serial = ++pens;
  /** Lines written so far, and the line each card was last used in (by card id). */
  private lineNo = 0;
  private stamps = new Int32Array(1024);
  /** The ink box of the letter being written, and of every letter of the line (reused: no garbage a letter). */
  private readonly extent: Extent = { left: 0, right: 0, top: 0, bottom: 0 };
  private readonly written = new Letters();
  /** Where the glyphs of the line being written go (reused from line to line). */
  private readonly places = new Places();
  /** The glyphs of the line being written (Line.glyphsInto: reused from line to line). */
  private readonly lineGlyphs: LineGlyph[] = [];
  /** The hand on the glyph being placed (reused from glyph to glyph). */
  private readonly glyphHand = blankGlyphHand();
  /** How much the drawings of the line being written depart from the font's (Handwriting.shapes). */
  private shapesNow = 0;
  /** The letter before in a connected hand's word (reused from letter to letter). */
  private readonly before = new JoinFrom();
  /** How low the ink of the lines written on the page reaches, in bins INK_BIN pt wide across it. */
  private lowest: { page: DisplayPage | null; bins: Float64Array } = {
    page: null,
    bins: new Float64Array(0),
  };

  constructor(
    fonts: LoadedFont[],
    readonly hand: Handwriting,
    /** Keep each drawing's centrelines in its glyph definition too (the pen-plotter writer draws them). */
    private readonly centrelines = false,
  ) {
    for (const f of fonts) this.fontIndex.set(f, this.fontIndex.size);
    const main = fonts[0];
    this.xHeight = main ? (main.reach.x ?? main.upem / 2) / main.upem : 0.5;
  }

  /** The hand's x-height, in font sizes: the least space between words is measured against it. */
  private readonly xHeight: number;

  /** Writes a line; `lineHand` (the line's slope, drift, wobble) is drawn afresh unless given, and returned. */
  write(page: DisplayPage, line: Line, at: LinePlacement, lineHand: LineHand = this.hand.line()): LineHand {
    const { hand } = this;
    const { size, baseline, left } = at;
    const wobble = at.wobble === undefined ? lineHand.wobble : clamp(lineHand.wobble, at.wobble);
    const x0 = left + line.offset + wobble;
    const placed = this.place(line, at, lineHand, x0);
    const n = placed.n;
    const calm = at.room ? this.calming(placed, at.room, baseline, size) : 1;
    const shapes = hand.shapes;
    // Kept on the pen for the calls a letter makes (deal, widthOf): a number passed to a call the
    // optimiser does not inline is boxed, garbage a letter.
    this.shapesNow = shapes;
    // The drawings this line has used (stamped with the line's number), so that none repeats in it.
    const inLine = ++this.lineNo;
    // In a connected hand, the letter before in the word (JoinFrom): none at the line's start.
    const before = this.before;
    before.word = -1;
    this.written.n = 0;
    // One of each letter's drawings: the font's alternates, each drawn afresh several times (the
    // shapes modifier), dealt in writing order so that none repeats within the line.
    const cards = placed.card;
    for (let i = 0; i < n; i++) cards[i] = this.deal(placed.g[i]!, inLine);
    // A letter written wider or narrower than it was spaced at (a drawing wider than the font's,
    // a letter the hand stretches, narrows or writes smaller than its neighbours, a tired hand's
    // most of all, or one calmed to fit its room) sets the letters after it further on or closer
    // (pt along the line), so no gap opens inside a word and none overlaps more; a line that would
    // run past its measure, or one aligned or justified to it, keeps its length, the difference
    // spread over its letters. Not a connected hand's: each of its
    // letters meets the one before where that one's stroke leaves it (runsOn), so a word is as
    // long as its letters are written, and what was taken back would come off the gap after it.
    const { along, wide } = placed;
    let widened = 0;
    let back = 0;
    for (let i = 0; i < n; i++) {
      along[i] = widened;
      const g = placed.g[i]!;
      const spaced = placed.spaced[i]!;
      const card = cards[i]!;
      this.widthOf(g.font, card, wide, i);
      const w = wide[i]!;
      const drawn = w * placed.stretch[i]! * (1 + calm * (placed.grow[i]! - 1));
      if (drawn === spaced) continue;
      const more = (drawn - spaced) * g.font.advance(card.gid) * ((size * g.fit) / g.font.upem);
      widened += more;
      if (!g.font.joined) back += more;
    }
    // A line set to the left runs on into the room free at its end (Line.slack), or ends sooner:
    // only what its letters and its widened word gaps (place) would carry past its measure is
    // taken back, and its letters keep the spacing the font gives them.
    if (line.slack > 0) back = Math.max(0, back + placed.pushed - line.slack);
    for (let i = 0; i < n; i++) along[i]! -= (back * i) / n;
    // What a drawing may add to a letter's ink on every side (shapesReach), by font: worked out
    // when the font changes, not for every letter.
    let reachOf: LoadedFont | null = null;
    let grown = 0;
    for (let i = 0; i < n; i++) {
      const g = placed.g[i]!;
      const y = baseline - g.dy + calm * (placed.dy[i]! + along[i]! * lineHand.slope);
      const s = ((size * g.fit) / g.font.upem) * (1 + calm * (placed.grow[i]! - 1));
      const angle = calm * placed.angle[i]!;
      const cos = calm === 1 ? placed.cos[i]! : Math.cos(angle);
      const sin = calm === 1 ? placed.sin[i]! : Math.sin(angle);
      let fi = this.fontIndex.get(g.font);
      if (fi === undefined) {
        fi = this.fontIndex.size;
        this.fontIndex.set(g.font, fi);
      }
      const card = cards[i]!;
      const gid = card.gid;
      const variant = card.drawing;
      const shift = card.shift * s;
      // Font units (y up) → page (y down): scale, flip, rotate, move to the pen position.
      // Stretch and lean in font units (x scaled, then moved with the height), before the rotation.
      const k = placed.lean[i]!;
      const w = placed.stretch[i]!;
      const m: Matrix = [
        w * s * cos,
        w * s * sin,
        s * (k * cos + sin),
        s * (k * sin - cos),
        placed.x[i]! + along[i]! + shift * cos,
        y + shift * sin,
      ];
      const runsOn = before.word === g.word && g.font.joined;
      if (runsOn) {
        // The point where the letter before leaves, as the font sets this letter after it.
        const jx = before.exitX;
        const jy = before.exitY;
        const pm = before.m;
        const lx = (jx - before.advance) * wide[i]!;
        const dx = pm[0] * jx * before.wide + pm[2] * jy + pm[4] - (m[0] * lx + m[2] * jy + m[4]);
        const dy = pm[1] * jx * before.wide + pm[3] * jy + pm[5] - (m[1] * lx + m[3] * jy + m[5]);
        // Only a join the hand's variation parted (not one a justified line's spaces opened).
        if (hypot(dx, dy) < JOIN_REACH * size) {
          m[4] += dx;
          m[5] += dy;
        }
      }
      const joined = g.font.joined;
      if (joined) {
        // A letter whose ink the centrelines did not see run out still meets the next where the
        // font sets them side by side: held there, low on its right edge.
        // Its drawing's width (drawingWidth) moves that point with it: the next letter meets it
        // there, its own entry moved by its own width.
        const advance = g.font.advance(gid);
        const exit = exitOf(g.font, gid);
        before.advance = advance;
        before.exitX = exit ? exit[0] : advance;
        before.exitY = exit ? exit[1] : 0.25 * (g.font.reach.x ?? g.font.upem / 2);
        before.wide = wide[i]!;
      }
      // A tall letter under a line whose ink hangs low there is written shorter (its ascender,
      // or its top), as a writer's pen shortens a stroke it would cross the line above with.
      if (g.font !== reachOf) {
        reachOf = g.font;
        grown = shapesReach(g.font, shapes) * g.font.upem;
      }
      const ink = inkExtent(m, g.font.box(gid), grown, this.extent, wide[i]!);
      const above = this.inkAbove(page, ink.left, ink.right);
      const clear = LINE_CLEAR * size;
      const base = m[5]; // the baseline under the pen, after a join moved it
      if (above < base && ink.top < above + clear) {
        const k = Math.max(MOST_SHORTENED, (base - above - clear) / (base - ink.top));
        m[2] *= k;
        m[3] *= k;
        ink.bottom = base + (ink.bottom - base) * k;
      }
      this.written.add(ink.left, ink.right, ink.bottom);
      this.inDocument(card);
      let ref = card.ref;
      // A drawing's definition goes into the document the first time its card is dealt.
      if (ref === undefined) {
        ref = `${fi}:${gid}:${variant}`;
        card.ref = ref;
        card.definedAt = shapes;
        if (!this.glyphs[ref]) this.define(ref, g.font, card, size, shapes);
      }
      const item: Item & { kind: 'glyph' } = {
        kind: 'glyph',
        ref,
        m,
        color: placed.color[i]!,
        opacity: placed.opacity[i]!,
        word: g.word,
      };
      if (runsOn) item.joins = true;
      page.items.push(item);
      // The letter the next one in its word runs on from, in its final matrix.
      if (joined) {
        before.word = g.word;
        before.m = m;
      } else before.word = -1;
      if (at.overstrike) {
        const o = at.overstrike * size;
        page.items.push({
          kind: 'glyph',
          ref,
          m: [m[0], m[1], m[2], m[3], m[4] + o * cos, m[5] + o * sin],
          color: placed.color[i]!,
          opacity: placed.opacity[i]!,
        });
      }
    }
    this.inkBelow(page, this.written);
    if (line.text)
      page.lines.push({ x: x0, y: baseline, width: line.width, size, text: line.text, visual: line.visual });
    return lineHand;
  }

  /**
   * Puts a drawing of a letter into the document's glyph table, drawn with the `shapes` its deck
   * was dealt with (the line's: a tiring hand's changes from letter to letter).
   */
  private define(ref: string, font: LoadedFont, card: Card, size: number, shapes: number): void {
    const { gid, drawing: variant } = card;
    const how = this.howOf(font, gid, variant, shapes);
    // The card remembers its last outline, so that the next document written with the same
    // shapes and ink takes it without asking the thread's cache of drawings.
    let path = card.path;
    if (path?.shapes !== shapes || path.pressure !== how.pressure || path.blots !== how.blots) {
      path = { shapes, pressure: how.pressure, blots: how.blots, d: letterPath(font, gid, how) };
      card.path = path;
    }
    this.glyphs[ref] = {
      font: font.id,
      gid,
      variant,
      scale: size / font.upem,
      path: path.d,
      ...(this.centrelines ? { strokes: letterStrokes(font, gid, how) } : {}),
    };
  }

  /** Makes what `card` knows of a document (Card.pen) this pen's, the first time the pen deals it. */
  private inDocument(card: Card): void {
    if (card.pen === this.serial) return;
    card.pen = this.serial;
    card.ref = undefined;
    card.definedAt = Number.NaN;
  }

  /**
   * The card's drawing width as drawn at the line's shapes (drawingWidth), into `into[i]`: the
   * same in every document, kept on the card. Once the document has defined the card's drawing,
   * at the shapes it was defined at: that is the drawing every later instance is written with.
   */
  private widthOf(font: LoadedFont, card: Card, into: Float64Array, i: number): void {
    const shapes = card.pen === this.serial && card.ref !== undefined ? card.definedAt : this.shapesNow;
    if (card.widthAt !== shapes) {
      card.width = drawingWidth(font, card.gid, this.howOf(font, card.gid, card.drawing, shapes));
      card.widthAt = shapes;
    }
    into[i] = card.width;
  }

  /** How drawing `variant` of glyph `gid` is made. */
  private howOf(font: LoadedFont, gid: number, variant: number, shapes: number): Drawing {
    return {
      drawing: variant,
      shapes,
      ...this.hand.inkShape,
      // The hand's own drawings, the same in every document: the document's seed deals them.
      seed: HAND_DRAWINGS_SEED,
      key: `${font.id}:${gid}`,
      advance: font.advance(gid),
    };
  }

  /** How low the ink written on `page` so far reaches between `left` and `right` (pt, y down; -Infinity where there is none). */
  private inkAbove(page: DisplayPage, left: number, right: number): number {
    if (this.lowest.page !== page) return Number.NEGATIVE_INFINITY;
    const bins = this.lowest.bins;
    let low = Number.NEGATIVE_INFINITY;
    const a = Math.max(0, Math.floor(left / INK_BIN));
    const b = Math.min(bins.length - 1, Math.floor(right / INK_BIN));
    for (let i = a; i <= b; i++) if (bins[i]! > low) low = bins[i]!;
    return low;
  }

  /** Remembers how low a line's letters reach on `page`, for the lines written under it. */
  private inkBelow(page: DisplayPage, letters: Letters): void {
    if (this.lowest.page !== page) {
      this.lowest = {
        page,
        bins: new Float64Array(Math.ceil(page.width / INK_BIN) + 1).fill(Number.NEGATIVE_INFINITY),
      };
    }
    const bins = this.lowest.bins;
    const { box } = letters;
    for (let l = 0; l < letters.n; l++) {
      const bottom = box[3 * l + 2]!;
      const a = Math.max(0, Math.floor(box[3 * l]! / INK_BIN));
      const b = Math.min(bins.length - 1, Math.floor(box[3 * l + 1]! / INK_BIN));
      for (let i = a; i <= b; i++) if (bottom > bins[i]!) bins[i] = bottom;
    }
  }

  /** Each glyph of the line with the hand's variation on it: where it goes, and how far the variation moves, grows and turns it. */
  private place(line: Line, at: LinePlacement, lineHand: LineHand, x0: number): Places {
    const { hand } = this;
    const { size, left } = at;
    // Guards that keep words words (GAP_GUARD): inside a word a letter moves at most `guard`
    // further from the one before it and grows at most `guard` past its advance; a word grows
    // at most `guard` on either side; a word gap shrinks by at most `guard` more for its own
    // variation and `guard` for its first letter's shift. Every gap inside a word stays
    // narrower than the gaps between words.
    const guard = GAP_GUARD * size;
    // The least clear space between two words' ink (leastWordSpace).
    const wordInk = leastWordSpace(this.xHeight) * size;
    const glyphs = this.lineGlyphs;
    const count = line.glyphsInto(glyphs);
    const out = this.places;
    out.reset(count);
    const gh = this.glyphHand;
    let extra = 0;
    let lastInk = -Infinity; // where the last letter's ink ends, pt
    let [beforeWord, beforeDx] = [-1, 0];
    // The word being placed: its number, its middle (pt along the line) and its size.
    let [wordN, wordMiddle, wordScale] = [-1, 0, 1];
    for (let i = 0; i < count; i++) {
      const g = glyphs[i]!;
      if (g.word < 0) {
        extra += line.justify + Math.max(-guard, hand.space(size));
        continue;
      }
      hand.glyph(g.word, x0 + g.x + extra - left, lineHand, gh);
      const advance = (i + 1 < count ? glyphs[i + 1]!.x : line.width) - g.x;
      if (g.word !== wordN) {
        let last = i;
        while (last + 1 < count && glyphs[last + 1]!.word === g.word) last++;
        const width = (last + 1 < count ? glyphs[last + 1]!.x : line.width) - g.x;
        const most = width > 0 ? (2 * guard) / width : 0;
        wordN = g.word;
        wordMiddle = g.x + width / 2;
        wordScale = Math.min(1 + most, Math.max(1 - most, gh.wordScale));
      }
      let dx = gh.dx;
      if (beforeWord >= 0)
        dx = g.word === beforeWord ? Math.min(dx, beforeDx + guard) : Math.max(dx, beforeDx - guard);
      const starts = beforeWord >= 0 && g.word !== beforeWord;
      beforeWord = g.word;
      beforeDx = dx;
      // The word scaled about its middle: its letters and their spacing together.
      // A tired hand writes larger (gh.grow): its letters and words spread as they grow (the
      // layout wrapped its lines narrower for it, lineShare).
      let x = x0 + gh.grow * (wordMiddle + (g.x - wordMiddle) * wordScale + g.dx) + extra + dx;
      const own = advance > 0 ? Math.min(gh.scale, 1 + guard / advance) : gh.scale;
      const grow = own * wordScale * gh.grow;
      const angle = gh.rotation + lineHand.angle;
      // Between words the ink stays apart (leastWordSpace): a letter turned, leant or drawn wider than
      // its advance must not reach across the gap; the rest of the line moves on to make room.
      const cos = quickCos(angle);
      const sin = quickSin(angle);
      // How far the letter's ink reaches left and right of its pen position: its box turned,
      // leant and stretched as the hand writes it, widened by what its drawing may add.
      const box = g.font.box(g.gid);
      const scale = ((size * g.fit) / g.font.upem) * grow;
      // What a drawing of the shapes modifier may add to the letter's width on either side.
      const reach = shapesReach(g.font, hand.shapes) * size;
      const a = gh.stretch * scale * cos;
      const c = scale * (gh.lean * cos + sin);
      const inkLeft = Math.min(a * box[0], a * box[2]) + Math.min(c * box[1], c * box[3]) - reach;
      const inkRight = Math.max(a * box[0], a * box[2]) + Math.max(c * box[1], c * box[3]) + reach;
      if (starts && x + inkLeft - lastInk < wordInk) {
        const push = wordInk - (x + inkLeft - lastInk);
        extra += push;
        x += push;
        out.pushed += push;
      }
      lastInk = x + inkRight;
      const j = out.n++;
      out.g[j] = g;
      out.color[j] = gh.color;
      out.x[j] = x;
      out.dy[j] = lineHand.drift + gh.dy + (x - left) * lineHand.slope;
      out.grow[j] = grow;
      out.spaced[j] = gh.grow * wordScale;
      out.angle[j] = angle;
      out.cos[j] = cos;
      out.sin[j] = sin;
      out.lean[j] = gh.lean;
      out.stretch[j] = gh.stretch;
      out.opacity[j] = gh.opacity;
    }
    return out;
  }

  /**
   * How much of the hand's vertical variation (drift, slope, baseline, size, turn) the line can
   * keep so that every letter's ink stays inside `room`: 1 when it fits as it is, else less, in
   * steps, down to none. A letter that reaches further when written plainly may keep that reach.
   */
  private calming(
    placed: Places,
    room: { above: number; below: number },
    baseline: number,
    size: number,
  ): number {
    const shapes = this.hand.shapes;
    const fits = (calm: number) => {
      for (let i = 0; i < placed.n; i++) {
        const g = placed.g[i]!;
        const box = g.font.box(g.gid);
        // What a drawing of the shapes modifier may add to the letter's height at either end.
        const grown = shapesReach(g.font, shapes) * g.font.upem;
        const y0 = box[1] - grown;
        const y1 = box[3] + grown;
        const plain = (size * g.fit) / g.font.upem;
        const s = plain * (1 + calm * (placed.grow[i]! - 1));
        const cos = calm === 1 ? placed.cos[i]! : Math.cos(calm * placed.angle[i]!);
        const sin = calm === 1 ? placed.sin[i]! : Math.sin(calm * placed.angle[i]!);
        const base = baseline - g.dy;
        // The box's corners turned with the letter: y = base + dy + x·sin − y·cos (font units scaled).
        const y = base + calm * placed.dy[i]!;
        const a = box[0] * sin;
        const b = box[2] * sin;
        const c = y0 * cos;
        const d = y1 * cos;
        const top = y + s * (Math.min(a, b) - Math.max(c, d));
        const bottom = y + s * (Math.max(a, b) - Math.min(c, d));
        const limitTop = Math.min(baseline - room.above, base - y1 * plain);
        const limitBottom = Math.max(baseline + room.below, base - y0 * plain);
        if (top < limitTop - 0.01 || bottom > limitBottom + 0.01) return false;
      }
      return true;
    };
    for (const calm of CALMING) if (fits(calm)) return calm;
    return 0;
  }

  /**
   * The next of a letter's drawings. The deck holds each of them (the usual outline and the
   * font's alternates, each in `ceil(DRAWINGS / n)` shapes, or only the outlines with shapes
   * off) and is shuffled each time it is used up; one deck serves the letter whichever of its
   * outlines shaping chose (contextual alternates). A drawing this line has used already goes
   * further down the deck.
   */
  private usedIn(card: Card): number {
    return card.id < this.stamps.length ? this.stamps[card.id]! : 0;
  }

  private stamp(card: Card, line: number): void {
    if (card.id >= this.stamps.length) {
      const grown = new Int32Array(Math.max(card.id + 1, this.stamps.length * 2));
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamps[card.id] = line;
  }

  private deal(g: { gid: number; cp: number; font: LoadedFont }, inLine: number): Card {
    const shapes = this.shapesNow;
    let byGid = this.decks.get(g.font);
    if (!byGid) {
      byGid = new Map();
      this.decks.set(g.font, byGid);
    }
    let deck = byGid.get(g.gid);
    if (!deck) {
      const cards = cardsOf(g, shapes, this.hand.alternates);
      // One deck per letter, whichever of its outlines shaping chose (contextual alternates).
      deck = [...byGid.values()].find((d) => d.cards.includes(cards[0]!)) ?? {
        cards: cards.slice(),
        next: cards.length,
        last: null,
      };
      byGid.set(g.gid, deck);
    }
    return this.next(deck, inLine, shapes > 0);
  }

  /**
   * The next card of `deck`: a new round shuffled when it is used up; none twice in a line (with
   * shapes on, a line that has used every drawing left gets one more).
   */
  private next(deck: Deck, inLine: number, shapes: boolean): Card {
    const { cards } = deck;
    if (deck.next >= cards.length) {
      for (let i = cards.length - 1; i > 0; i--) {
        const j = this.hand.pick(i + 1);
        [cards[i], cards[j]] = [cards[j]!, cards[i]!];
      }
      deck.next = 0;
      // The first card of a new round is never the last of the one before.
      if (cards.length > 1 && cards[0] === deck.last) {
        const j = 1 + this.hand.pick(cards.length - 1);
        [cards[0], cards[j]] = [cards[j]!, cards[0]!];
      }
    }
    let i = deck.next;
    while (i < cards.length && this.usedIn(cards[i]!) === inLine) i++;
    if (i === cards.length && shapes) {
      // The line has used every drawing left in this round: one more, drawn for this document.
      const model = cards[deck.next]!;
      let drawing = 0;
      for (const c of cards) if (c.gid === model.gid && c.drawing > drawing) drawing = c.drawing;
      cards.push(newCard(model, drawing + 1));
    }
    if (i < cards.length) [cards[deck.next], cards[i]] = [cards[i]!, cards[deck.next]!];
    const card = cards[deck.next++]!;
    this.stamp(card, inLine);
    deck.last = card;
    return card;
  }
}

/** The most a letter's own shift may open a gap inside a word or close one between words, in font sizes. */
const GAP_GUARD = 0.02;

/** Space kept between a letter's top and the ink of the line above, in font sizes. */
const LINE_CLEAR = 0.03;

/** The shortest a letter is written to clear the line above: this share of its height. */
const MOST_SHORTENED = 0.5;

/** Width of the bins the ink's reach below a line is kept in, pt. */
const INK_BIN = 2;

/** A letter's ink box on the page (pt, y down). */
interface Extent {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The page box (pt, y down) of a letter's ink box `box` (font units, y up), `wide` times as wide
 * from its pen position and grown by `grown` on every side, placed by `m`: into `e`, which the pen
 * reuses for every letter (no garbage).
 */
function inkExtent(
  m: Matrix,
  box: readonly [number, number, number, number],
  grown: number,
  e: Extent,
  wide = 1,
): Extent {
  const x0 = box[0] * wide - grown;
  const x1 = box[2] * wide + grown;
  const y0 = box[1] - grown;
  const y1 = box[3] + grown;
  // The four corners: x·m0 + y·m2 across, x·m1 + y·m3 down, each the least and most of its terms.
  const ax = m[0] * x0;
  const bx = m[0] * x1;
  const cx = m[2] * y0;
  const dx = m[2] * y1;
  const ay = m[1] * x0;
  const by = m[1] * x1;
  const cy = m[3] * y0;
  const dy = m[3] * y1;
  e.left = Math.min(ax, bx) + Math.min(cx, dx) + m[4];
  e.right = Math.max(ax, bx) + Math.max(cx, dx) + m[4];
  e.top = Math.min(ay, by) + Math.min(cy, dy) + m[5];
  e.bottom = Math.max(ay, by) + Math.max(cy, dy) + m[5];
  return e;
}

/** The farthest the hand's variation may part a join for the pen to close it, in font sizes. */
const JOIN_REACH = 0.3;

/** Where a connected hand's letter runs out into the next (font units): the end of its stroke that does, if one does. Read once per glyph and thread. */
const exitOf = perFont((font, gid): [number, number] | null => {
  const out = font.centrelines(gid).find((s) => s.exit);
  return out ? [out.points.at(-2)!, out.points.at(-1)!] : null;
});

/** How much of its variation a line keeps when all of it does not fit its room, tried in turn. */
const CALMING = [1, 0.8, 0.6, 0.45, 0.3, 0.15];

const clamp = (v: number, most: number) => Math.max(-most, Math.min(most, v));

/** Every letter's drawings, per thread (immutable; each document deals its own copy). */
const CARDS = drawingCache<readonly Card[]>();

/**
 * A letter's drawings: the usual outline and the font's alternates, each in
 * `ceil(DRAWINGS / n)` shapes (only the outlines with shapes off); made once per thread.
 */
function cardsOf(
  g: { gid: number; cp: number; font: LoadedFont },
  shapes: number,
  alternates: boolean,
): readonly Card[] {
  const shaped = alternates ? g.font.alternates(g.cp, g.gid) : NO_ALTERNATES;
  let first = g.gid;
  for (const a of shaped) if (a.gid < first) first = a.gid;
  // The letter's outlines as its first glyph has them, whichever of them shaping chose here: the
  // same cards in the same order whatever the thread wrote before.
  const alts = first === g.gid ? shaped : g.font.alternates(g.cp, first);
  const key = `${g.font.id}:${first}:${shapes > 0}:${alts.length}`;
  let cards = CARDS.get(key);
  if (!cards) {
    const outlines: Alternate[] = [{ gid: first, shift: 0 }, ...alts];
    const each = shapes > 0 ? Math.ceil(DRAWINGS / outlines.length) : 0;
    const made: Card[] = [];
    for (const o of outlines) {
      if (each === 0) made.push(newCard(o, 0));
      for (let d = 1; d <= each; d++) made.push(newCard(o, d));
    }
    cards = made;
    if (CARDS.size >= 10_000) CARDS.clear();
    CARDS.set(key, cards);
  }
  return cards;
}

/**
 * A card in one document (its pen's `serial`): its reference in the glyph table once defined, and
 * the shapes amount it was defined at. Kept on the card, where the pen has it at hand (a map from
 * card to reference, looked up a letter, cost as much as the rest of the letter's placing): a pen
 * that finds another pen's there starts its own.
 */
interface Card extends Alternate {
  /** 0: the outline as the font has it; 1 and up: a drawing of the shapes modifier. */
  drawing: number;
  /** Unique in the thread: where a document stamps the line that last used it. */
  id: number;
  /**
   * What the document of the pen that dealt it last (its serial, 0: none) knows of it: its
   * drawing's reference there once defined, and the shapes amount it was defined at (a tiring
   * hand's grows). Fields of the card, not an object of their own: the pen reads them on every
   * letter, and each object between was one more place in memory to fetch.
   */
  pen: number;
  ref: string | undefined;
  definedAt: number;
  /** Its drawing's width at `widthAt` shapes (drawingWidth; NaN: not yet worked out). */
  width: number;
  widthAt: number;
  /** Its outline at `shapes` and ink (letterPath), as last worked out. */
  path: { shapes: number; pressure: number; blots: number; d: string } | undefined;
}

/** A new card: drawing `drawing` of `alternate`, with a number of its own. */
function newCard(alternate: Alternate, drawing: number): Card {
  return {
    gid: alternate.gid,
    shift: alternate.shift,
    drawing,
    id: nextCardId++,
    pen: 0,
    ref: undefined,
    definedAt: Number.NaN,
    width: Number.NaN,
    widthAt: Number.NaN,
    path: undefined,
  };
}

let nextCardId = 0;
/** Pens made in this thread (Pen.serial). */
let pens = 0;

interface Deck {
  cards: Card[];
  /** The next card to deal; at the end, the deck is shuffled again. */
  next: number;
  last: Card | null;
}

const NO_ALTERNATES: readonly Alternate[] = [];
