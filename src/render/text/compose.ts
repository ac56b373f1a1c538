// Letters a hand lacks, composed from its own: an é it does not have is its e with an acute
// written over it, drawn with the hand's own stroke for the mark (its ´ where it has one, else
// its / made small), rather than a whole letter from another hand. A composed letter is its base
// letter, shaped as usual (kerning, contextual forms), followed by one glyph per mark: no
// advance of its own, sized to the mark's usual width and centred over (or under) the base's
// ink. Only what Unicode decomposes into a base and combining marks this module knows is
// composed; æ, ø, ß and their like, and an i or a j under a mark in a hand without a dotless
// one, still come from a hand that has them. Pure.
import type { LoadedFont, ShapedGlyph } from './fonts.ts';
import { perFont, shape } from './fonts.ts';

/**
 * The hand's own characters that stand in for each combining mark, in order of preference: a
 * spacing accent where the font has one, else a stroke of the same shape. `width`: the mark's
 * ink width in ems, what a stand-in is sized to; `below`: the mark hangs under the base.
 */
const MARKS: Record<number, { chars: string; width: number; below?: boolean; pair?: string }> = {
  768: { chars: '`\\', width: 0.13 }, // grave
  769: { chars: '´/', width: 0.13 }, // acute
  770: { chars: 'ˆ^', width: 0.26 }, // circumflex
  771: { chars: '˜~', width: 0.28 }, // tilde
  772: { chars: '¯-', width: 0.26 }, // macron
  774: { chars: '˘u', width: 0.22 }, // breve
  775: { chars: '˙.', width: 0.07 }, // dot above
  776: { chars: '¨', width: 0.24, pair: '.' }, // diaeresis: its ¨, else two dots
  778: { chars: '˚°o', width: 0.13 }, // ring above
  779: { chars: '˝', width: 0.24, pair: '´/' }, // double acute
  780: { chars: 'ˇv', width: 0.22 }, // caron
  807: { chars: '¸,', width: 0.12, below: true }, // cedilla
  808: { chars: '˛,', width: 0.12, below: true }, // ogonek
};

/** Room between the base's ink and a mark's, in ems. */
const MARK_GAP = 0.05;
/** A dot of a pair stands this share of the mark's width from the middle. */
const PAIR_SPREAD = 0.5;

interface MarkPlan {
  gid: number;
  /** The stand-in's size against the letter's. */
  size: number;
  below: boolean;
  /** For a pair: -1 and 1, each half of it; 0 for a single mark. */
  side: number;
  /** The mark's ink width in font units, for a pair's spread. */
  width: number;
}

interface Composition {
  /** The base letter shaped in the composed letter's place. */
  base: number;
  marks: MarkPlan[];
}

/** How `font` composes `cp` from its own letters, or null where it cannot (or has `cp` itself). */
export const composition = perFont(planOf);

function planOf(font: LoadedFont, cp: number): Composition | null {
  if (cp < 0xc0 || font.covers(cp)) return null;
  const parts = [...String.fromCodePoint(cp).normalize('NFD')].map((c) => c.codePointAt(0)!);
  if (parts.length < 2 || !parts.slice(1).every((m) => MARKS[m])) return null;
  let base = parts[0]!;
  // An i or a j under a mark loses its dot: the hand's dotless one, or no composing (a mark over
  // the dot reads as another letter).
  if ((base === 0x69 || base === 0x6a) && parts.slice(1).some((m) => !MARKS[m]!.below)) {
    base = base === 0x69 ? 0x131 : 0x237;
  }
  if (base > 0xffff || !font.covers(base)) return null;
  const marks: MarkPlan[] = [];
  for (const m of parts.slice(1)) {
    const mark = MARKS[m]!;
    const single = [...mark.chars].find((c) => font.covers(c.codePointAt(0)!));
    const paired = single ? undefined : [...(mark.pair ?? '')].find((c) => font.covers(c.codePointAt(0)!));
    const char = single ?? paired;
    if (!char) return null;
    const gid = shape(font, char, false)[0]!.gid;
    const box = font.box(gid);
    const inkWidth = Math.max(1, box[2] - box[0]);
    const width = mark.width * font.upem;
    // A pair's each half is sized as a dot of the pair would be (its own width is the target's third).
    const target = paired ? width / 3 : width;
    const size = Math.min(1, Math.max(0.3, target / inkWidth));
    const below = mark.below === true;
    if (paired) for (const side of [-1, 1]) marks.push({ gid, size, below, side, width });
    else marks.push({ gid, size, below, side: 0, width });
  }
  // Marks above stack upwards from the base in the order written; marks below, downwards.
  return { base, marks };
}

/** `text` with every letter `font` composes replaced by its base (the same length: what is shaped). */
export function composedBases(font: LoadedFont, text: string): string | null {
  let out: string[] | null = null;
  for (let i = 0; i < text.length; i++) {
    const cp = text.charCodeAt(i);
    const plan = cp < 0xc0 ? null : composition(font, cp);
    if (!plan) continue;
    out ??= text.split(''); // UTF-16 units: the indices shaping's clusters count in
    out[i] = String.fromCharCode(plan.base);
  }
  return out?.join('') ?? null;
}

/**
 * The glyphs shaped from `composedBases(text)`, with each composed letter's marks added after its
 * base glyph: no advance, centred over (or under) the base's ink, each sized to its mark (`size`);
 * a mark's offsets are from the base's own pen position.
 */
export function withMarks(font: LoadedFont, text: string, glyphs: ShapedGlyph[]): ShapedGlyph[] {
  const out: ShapedGlyph[] = [];
  const gap = MARK_GAP * font.upem;
  for (const g of glyphs) {
    out.push(g);
    const plan = composition(font, text.charCodeAt(g.cluster));
    if (!plan) continue;
    const box = font.box(g.gid);
    const middle = (box[0] + box[2]) / 2 + g.dx;
    let top = box[3] + g.dy + gap;
    let bottom = box[1] + g.dy - gap * 0.4;
    for (const m of plan.marks) {
      const mb = font.box(m.gid);
      const height = (mb[3] - mb[1]) * m.size;
      const x = middle + m.side * PAIR_SPREAD * m.width - ((mb[0] + mb[2]) / 2) * m.size;
      const y = m.below ? bottom - mb[3] * m.size : top - mb[1] * m.size;
      out.push({ gid: m.gid, cluster: g.cluster, advance: 0, dx: x, dy: y, size: m.size });
      if (m.side >= 0) {
        if (m.below) bottom -= height + gap * 0.4;
        else top += height + gap * 0.4;
      }
    }
  }
  return out;
}
