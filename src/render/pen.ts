// The pen: writes laid-out lines onto a page with the hand's variation on every glyph, and keeps
// the document's glyph outlines (each distinct outline or variant once). Shared by simple text
// (document.ts) and structured documents (flow.ts).
import type { Style } from './spec.ts';
import type { DisplayList, DisplayPage, Matrix } from './display-list.ts';
import type { Alternate, LoadedFont } from './fonts.ts';
import type { Handwriting } from './handwriting.ts';
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
    /** The drawings this line has used, so that none repeats within it. */
    const inLine = new Set<Card>();
    let extra = 0;
    for (const g of line.glyphs) {
      if (g.word < 0) {
        extra += line.justify + hand.space(size);
        continue;
      }
      const gh = hand.glyph(g.word);
      const x = x0 + g.x + extra + g.dx + gh.dx;
      const y = baseline + lineHand.drift - g.dy + gh.dy + (x - left) * lineHand.slope;
      const s = (size / g.font.upem) * gh.scale;
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
        path: drawingPath(
          g.font.outline(gid),
          g.font.upem,
          variant,
          shapes,
          this.style.modifiers.seed,
          `${g.font.id}:${gid}`,
        ),
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
  private deal(g: { gid: number; cp: number; font: LoadedFont }, shapes: number, inLine: Set<Card>): Card {
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
  private next(deck: Deck, inLine: Set<Card>, shapes: boolean): Card {
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
    while (i < cards.length && inLine.has(cards[i]!)) i++;
    if (i === cards.length && shapes) {
      // The line has used every drawing left in this round: one more, drawn for this document.
      const model = cards[deck.next]!;
      let drawing = 0;
      for (const c of cards) if (c.gid === model.gid && c.drawing > drawing) drawing = c.drawing;
      cards.push({ gid: model.gid, shift: model.shift, drawing: drawing + 1 });
    }
    if (i < cards.length) [cards[deck.next], cards[i]] = [cards[i]!, cards[deck.next]!];
    const card = cards[deck.next++]!;
    inLine.add(card);
    deck.last = card;
    return card;
  }
}

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
      if (each === 0) made.push({ ...o, drawing: 0 });
      for (let d = 1; d <= each; d++) made.push({ ...o, drawing: d });
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
}

interface Deck {
  cards: Card[];
  /** The next card to deal; at the end, the deck is shuffled again. */
  next: number;
  last: Card | null;
}

type LineHand = ReturnType<Handwriting['line']>;

const NO_ALTERNATES: readonly Alternate[] = [];
