// The pen: writes laid-out lines onto a page with the hand's variation on every glyph, and keeps
// the document's glyph outlines (each distinct outline or variant once). Shared by simple text
// (document.ts) and structured documents (flow.ts).
import type { Style } from './spec.ts';
import type { DisplayList, DisplayPage, Matrix } from './display-list.ts';
import type { Alternate, LoadedFont } from './fonts.ts';
import { type Handwriting, VARIANTS } from './handwriting.ts';
import type { Line } from './text-layout.ts';
import { variantPath } from './variants.ts';

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
  /** Reference keys by number, so the hot loop does not build a string per glyph. */
  private readonly refs = new Map<number, string>();
  /** Character → gid of its latest instance, so a letter's next instance takes another drawing. */
  private readonly lastDrawing = new Map<number, number>();

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
      // One of the letter's drawings (the font's alternates), never the one its previous
      // instance got; with several drawings, fewer warps of each (variety enough, fewer forms).
      let [gid, shift, variant] = [g.gid, 0, gh.variant];
      const alts = hand.alternates ? g.font.alternates(g.cp, g.gid) : NO_ALTERNATES;
      if (alts.length) {
        const last = this.lastDrawing.get(g.cp);
        const repeat = last === g.gid || alts.some((d) => d.gid === last);
        const d = nthDrawing(g.gid, alts, last, hand.alternate(alts.length + (repeat ? 0 : 1)));
        [gid, shift] = [d.gid, d.shift * s];
        this.lastDrawing.set(g.cp, gid);
        if (variant > 0) variant = 1 + ((variant - 1) % Math.ceil(VARIANTS / (alts.length + 1)));
      }
      // Font units (y up) → page (y down): scale, flip, rotate, move to the pen position.
      const m: Matrix = [s * cos, s * sin, s * sin, -s * cos, x + shift * cos, y + shift * sin];
      let fi = this.fontIndex.get(g.font);
      if (fi === undefined) {
        fi = this.fontIndex.size;
        this.fontIndex.set(g.font, fi);
      }
      const refKey = fi * 0x1000000 + gid * 16 + variant;
      let ref = this.refs.get(refKey);
      if (ref === undefined) {
        ref = `${fi}:${gid}:${variant}`;
        this.refs.set(refKey, ref);
      }
      this.glyphs[ref] ??= {
        font: g.font.id,
        gid,
        variant,
        scale: size / g.font.upem,
        path: variantPath(
          g.font.outline(gid),
          g.font.upem,
          variant,
          this.style.modifiers.letters.warp,
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
}

type LineHand = ReturnType<Handwriting['line']>;

const NO_ALTERNATES: readonly Alternate[] = [];

/** The k-th of a letter's drawings (its usual one first) other than `skip`. */
function nthDrawing(
  usual: number,
  alts: readonly Alternate[],
  skip: number | undefined,
  k: number,
): Alternate {
  let left = k;
  if (usual !== skip && left-- === 0) return { gid: usual, shift: 0 };
  for (const d of alts) if (d.gid !== skip && left-- === 0) return d;
  return { gid: usual, shift: 0 };
}
