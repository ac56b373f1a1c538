// The pen: writes laid-out lines onto a page with the hand's variation on every glyph, and keeps
// the document's glyph outlines (each distinct outline or variant once). Shared by simple text
// (document.ts) and structured documents (flow.ts).
import type { Style } from './spec.ts';
import type { DisplayList, DisplayPage, Matrix } from './display-list.ts';
import type { Alternate, LoadedFont } from './fonts.ts';
import type { Handwriting, LineHand } from './handwriting.ts';
import type { Line } from './text-layout.ts';
import { DRAWINGS, drawingPath } from './variants.ts';

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
}

export class Pen {
  readonly glyphs: DisplayList['glyphs'] = {};
  private readonly fontIndex = new Map<LoadedFont, number>();
  /** Each letter's drawings, dealt like cards: every one once before any comes again (by font, then glyph as shaped). */
  private readonly decks = new Map<LoadedFont, Map<number, Deck>>();
  /** Each drawing's reference in this document's glyph table. */
  private readonly cardRefs = new Map<Card, string>();
  /** Lines written so far, and the line each card was last used in (by card id). */
  private lineNo = 0;
  private stamps = new Int32Array(1024);

  constructor(
    fonts: LoadedFont[],
    private readonly style: Style,
    readonly hand: Handwriting,
  ) {
    for (const f of fonts) this.fontIndex.set(f, this.fontIndex.size);
  }

  /** Writes a line; `lineHand` (the line's slope, drift, wobble) is drawn afresh unless given, and returned. */
  write(page: DisplayPage, line: Line, at: LinePlacement, lineHand: LineHand = this.hand.line()): LineHand {
    const { hand } = this;
    const { size, baseline, left } = at;
    const x0 = left + line.offset + lineHand.wobble;
    const shapes = hand.shapes;
    // The drawings this line has used (stamped with the line's number), so that none repeats in it.
    const inLine = ++this.lineNo;
    // Guards that keep words words (GAP_GUARD): inside a word a letter moves at most `guard`
    // further from the one before it and grows at most `guard` past its advance; a word grows
    // at most `guard` on either side; a word gap shrinks by at most `guard` more for its own
    // variation and `guard` for its first letter's shift. Every gap inside a word stays
    // narrower than the gaps between words.
    const guard = GAP_GUARD * size;
    const glyphs = line.glyphs;
    let extra = 0;
    let [beforeWord, beforeDx] = [-1, 0];
    let word = { n: -1, middle: 0, scale: 1 };
    for (let i = 0; i < glyphs.length; i++) {
      const g = glyphs[i]!;
      if (g.word < 0) {
        extra += line.justify + Math.max(-guard, hand.space(size));
        continue;
      }
      const gh = hand.glyph(g.word, x0 + g.x + extra - left, lineHand);
      const advance = (glyphs[i + 1]?.x ?? line.width) - g.x;
      if (g.word !== word.n) {
        let last = i;
        while (glyphs[last + 1]?.word === g.word) last++;
        const width = (glyphs[last + 1]?.x ?? line.width) - g.x;
        const most = width > 0 ? (2 * guard) / width : 0;
        word = {
          n: g.word,
          middle: g.x + width / 2,
          scale: Math.min(1 + most, Math.max(1 - most, gh.wordScale)),
        };
      }
      let dx = gh.dx;
      if (beforeWord >= 0)
        dx = g.word === beforeWord ? Math.min(dx, beforeDx + guard) : Math.max(dx, beforeDx - guard);
      [beforeWord, beforeDx] = [g.word, dx];
      // The word scaled about its middle: its letters and their spacing together.
      const placed = word.middle + (g.x - word.middle) * word.scale;
      const x = x0 + placed + extra + g.dx + dx;
      const own = advance > 0 ? Math.min(gh.scale, 1 + guard / advance) : gh.scale;
      const y = baseline + lineHand.drift - g.dy + gh.dy + (x - left) * lineHand.slope;
      const s = (size / g.font.upem) * own * word.scale * gh.grow;
      const [cos, sin] = [Math.cos(gh.rotation + lineHand.angle), Math.sin(gh.rotation + lineHand.angle)];
      let fi = this.fontIndex.get(g.font);
      if (fi === undefined) {
        fi = this.fontIndex.size;
        this.fontIndex.set(g.font, fi);
      }
      // One of the letter's drawings: the font's alternates, each drawn afresh several times
      // (the shapes modifier), dealt so that none repeats within the line.
      const card = this.deal(g, shapes, inLine);
      const [gid, variant] = [card.gid, card.drawing];
      const shift = card.shift * s;
      // Font units (y up) → page (y down): scale, flip, rotate, move to the pen position.
      // Stretch and lean in font units (x scaled, then moved with the height), before the rotation.
      const [k, w] = [gh.lean, gh.stretch];
      const m: Matrix = [
        w * s * cos,
        w * s * sin,
        s * (k * cos + sin),
        s * (k * sin - cos),
        x + shift * cos,
        y + shift * sin,
      ];
      let ref = this.cardRefs.get(card);
      if (ref === undefined) {
        ref = `${fi}:${gid}:${variant}`;
        this.cardRefs.set(card, ref);
      }
      this.glyphs[ref] ??= {
        font: g.font.id,
        gid,
        variant,
        scale: size / g.font.upem,
        path: drawingPath(g.font.outline(gid), g.font.upem, {
          drawing: variant,
          shapes,
          ...hand.inkShape,
          seed: this.style.modifiers.seed,
          key: `${g.font.id}:${gid}`,
        }),
      };
      page.items.push({ kind: 'glyph', ref, m, color: gh.color, opacity: gh.opacity });
      if (at.overstrike) {
        const o = at.overstrike * size;
        page.items.push({
          kind: 'glyph',
          ref,
          m: [m[0], m[1], m[2], m[3], m[4] + o * cos, m[5] + o * sin],
          color: gh.color,
          opacity: gh.opacity,
        });
      }
    }
    if (line.text)
      page.lines.push({ x: x0, y: baseline, width: line.width, size, text: line.text, visual: line.visual });
    return lineHand;
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

  private deal(g: { gid: number; cp: number; font: LoadedFont }, shapes: number, inLine: number): Card {
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
      cards.push({ gid: model.gid, shift: model.shift, drawing: drawing + 1, id: nextCardId++ });
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

/** Every letter's drawings, per thread (immutable; each document deals its own copy). */
const CARDS = new Map<string, readonly Card[]>();

/**
 * A letter's drawings: the usual outline and the font's alternates, each in
 * `ceil(DRAWINGS / n)` shapes (only the outlines with shapes off); made once per thread.
 */
function cardsOf(
  g: { gid: number; cp: number; font: LoadedFont },
  shapes: number,
  alternates: boolean,
): readonly Card[] {
  const alts = alternates ? g.font.alternates(g.cp, g.gid) : NO_ALTERNATES;
  let first = g.gid;
  for (const a of alts) if (a.gid < first) first = a.gid;
  const key = `${g.font.id}:${first}:${shapes > 0}:${alts.length}`;
  let cards = CARDS.get(key);
  if (!cards) {
    const outlines: Alternate[] = [{ gid: g.gid, shift: 0 }, ...alts];
    const each = shapes > 0 ? Math.ceil(DRAWINGS / outlines.length) : 0;
    const made: Card[] = [];
    for (const o of outlines) {
      if (each === 0) made.push({ ...o, drawing: 0, id: nextCardId++ });
      for (let d = 1; d <= each; d++) made.push({ ...o, drawing: d, id: nextCardId++ });
    }
    cards = made;
    if (CARDS.size >= 10_000) CARDS.clear();
    CARDS.set(key, cards);
  }
  return cards;
}

interface Card extends Alternate {
  /** 0: the outline as the font has it; 1 and up: a drawing of the shapes modifier. */
  drawing: number;
  /** Unique in the thread: where a document stamps the line that last used it. */
  id: number;
}

let nextCardId = 0;

interface Deck {
  cards: Card[];
  /** The next card to deal; at the end, the deck is shuffled again. */
  next: number;
  last: Card | null;
}

const NO_ALTERNATES: readonly Alternate[] = [];
