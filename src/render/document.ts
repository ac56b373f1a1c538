// A simple-text document → display list: page geometry from the template style, lines from
// text-layout.ts placed on the paper's rules, the handwriting applied to every glyph, paper drawn
// under it. Pure: fonts, seed and limits come in as arguments.
import type { Style } from '../domain/template.ts';
import { pageDimensionsMm } from '../domain/page-size.ts';
import { type DisplayList, type DisplayPage, MM, type Matrix } from './display-list.ts';
import { type Alternate, type FontSource, type LoadedFont, loadFont } from './fonts.ts';
import { Handwriting, VARIANTS } from './handwriting.ts';
import { drawPaper } from './paper.ts';
import { type Line, layoutParagraph, RenderError } from './text-layout.ts';
import { variantPath } from './variants.ts';

export interface TextDocument {
  style: Style;
  text: string;
  /** The template's font first, then the fallback chain; bytes of each. */
  fonts: FontSource[];
  /**
   * `maxPages`: more is an error (TOO_MANY_PAGES); `maxLines` likewise, lines after wrapping,
   * empty ones included (TOO_MANY_LINES). `firstPages`: only that many pages are drawn, laid
   * out as in the whole document (a preview).
   */
  limits?: { maxPages?: number; maxLines?: number; firstPages?: number };
}

/**
 * Page width and height in pt. Standard sizes are turned to the orientation; a custom size is
 * taken as its width and height say, and `landscape` swaps them.
 */
export function pageSizePt(style: Pick<Style, 'pageSize' | 'orientation'>): { width: number; height: number } {
  const mm = pageDimensionsMm(style.pageSize);
  const landscape = style.orientation === 'landscape';
  if (typeof style.pageSize === 'object') {
    return landscape ? { width: mm.height * MM, height: mm.width * MM } : { width: mm.width * MM, height: mm.height * MM };
  }
  const [short, long] = mm.width <= mm.height ? [mm.width, mm.height] : [mm.height, mm.width];
  return landscape ? { width: long * MM, height: short * MM } : { width: short * MM, height: long * MM };
}

export function renderText(doc: TextDocument): DisplayList {
  const { style } = doc;
  const maxPages = doc.limits?.maxPages ?? 200;
  const fonts: LoadedFont[] = doc.fonts.map(loadFont);
  const { width, height } = pageSizePt(style);
  const margin = { top: style.margins.top * MM, right: style.margins.right * MM, bottom: style.margins.bottom * MM, left: style.margins.left * MM };
  const size = style.fontSize;
  const boxWidth = Math.max(size, width - margin.left - margin.right);
  const ruled = style.paper.type === 'lined' || style.paper.type === 'grid';
  const spacing = style.paper.spacing * MM;
  // On ruled paper every baseline sits on a rule: the pitch is a whole number of rule spacings.
  const pitch = ruled ? spacing * Math.max(1, Math.round((size * style.lineHeight) / spacing)) : size * style.lineHeight;
  const firstBaseline = ruled ? Math.ceil((margin.top + size * 0.8) / spacing) * spacing : margin.top + size * 0.8;

  const missing = new Set<string>();
  const lines: Line[] = [];
  let words = 0;
  for (const paragraph of doc.text.replace(/\r\n?/g, '\n').split('\n')) {
    const laid = layoutParagraph(
      paragraph,
      fonts,
      {
        size,
        width: boxWidth,
        letterSpacing: style.letterSpacing * MM,
        wordSpacing: style.wordSpacing * MM,
        firstLineIndent: style.firstLineIndent * MM,
        align: style.align,
      },
      words,
      missing,
    );
    lines.push(...laid.lines);
    words += laid.words;
  }
  if (missing.size > 0) {
    const list = [...missing].slice(0, 10).join(', ');
    throw new RenderError('UNSUPPORTED_CHARACTERS', `no bundled font has ${missing.size > 10 ? `${missing.size} characters, among them ` : ''}${list}`);
  }

  const maxLines = doc.limits?.maxLines;
  if (maxLines !== undefined && lines.length > maxLines) {
    throw new RenderError('TOO_MANY_LINES', `the text makes ${lines.length} lines after wrapping, the most allowed is ${maxLines}`);
  }
  const perPage = Math.max(1, Math.floor((height - margin.bottom - firstBaseline) / pitch) + 1);
  const pageCount = Math.max(1, Math.ceil(lines.length / perPage));
  if (pageCount > maxPages) throw new RenderError('TOO_MANY_PAGES', `the document needs ${pageCount} pages, the most allowed is ${maxPages}`);

  const hand = new Handwriting(style.modifiers, style.color, lines.reduce((n, l) => n + l.glyphs.length, 0));
  const glyphs: DisplayList['glyphs'] = {};
  const fontIndex = new Map(fonts.map((f, i) => [f, i]));
  /** Reference keys by number, so the hot loop does not build a string per glyph. */
  const refs = new Map<number, string>();
  const lastDrawing = new Map<number, number>(); // character → gid of its latest instance
  const pages: DisplayPage[] = [];
  const drawn = Math.min(pageCount, doc.limits?.firstPages ?? pageCount);
  for (let p = 0; p < drawn; p++) {
    const page: DisplayPage = {
      width,
      height,
      background: style.background?.color ?? style.paper.background,
      sheet: hand.sheet(),
      items: [],
      lines: [],
    };
    const baselines: number[] = [];
    for (let b = firstBaseline; b <= height - margin.bottom + 0.01; b += pitch) baselines.push(b);
    drawPaper(page, style.paper, { baselines, spacing, margin });
    if (style.background?.assetId) page.items.unshift({ kind: 'image', assetId: style.background.assetId, x: 0, y: 0, width, height });

    for (let i = 0; i < perPage; i++) {
      const line = lines[p * perPage + i];
      if (!line) break;
      const baseline = firstBaseline + i * pitch;
      const lineHand = hand.line();
      const x0 = margin.left + line.offset + lineHand.wobble;
      let extra = 0;
      for (const g of line.glyphs) {
        if (g.word < 0) {
          extra += line.justify + hand.space(size);
          continue;
        }
        const gh = hand.glyph(g.word);
        const x = x0 + g.x + extra + g.dx + gh.dx;
        const y = baseline + lineHand.drift - g.dy + gh.dy + (x - margin.left) * lineHand.slope;
        const s = (size / g.font.upem) * gh.scale;
        const [cos, sin] = [Math.cos(gh.rotation + lineHand.angle), Math.sin(gh.rotation + lineHand.angle)];
        // One of the letter's drawings (the font's alternates), never the one its previous
        // instance got; with several drawings, fewer warps of each (variety enough, fewer forms).
        let [gid, shift, variant] = [g.gid, 0, gh.variant];
        const alts = hand.alternates ? g.font.alternates(g.cp, g.gid) : NO_ALTERNATES;
        if (alts.length) {
          const last = lastDrawing.get(g.cp);
          const repeat = last === g.gid || alts.some((d) => d.gid === last);
          const d = nthDrawing(g.gid, alts, last, hand.alternate(alts.length + (repeat ? 0 : 1)));
          [gid, shift] = [d.gid, d.shift * s];
          lastDrawing.set(g.cp, gid);
          if (variant > 0) variant = 1 + ((variant - 1) % Math.ceil(VARIANTS / (alts.length + 1)));
        }
        // Font units (y up) → page (y down): scale, flip, rotate, move to the pen position.
        const m: Matrix = [s * cos, s * sin, s * sin, -s * cos, x + shift * cos, y + shift * sin];
        const fi = fontIndex.get(g.font)!;
        const refKey = fi * 0x1000000 + gid * 16 + variant;
        let ref = refs.get(refKey);
        if (ref === undefined) {
          ref = `${fi}:${gid}:${variant}`;
          refs.set(refKey, ref);
        }
        glyphs[ref] ??= {
          font: g.font.id,
          gid,
          variant,
          scale: size / g.font.upem,
          path: variantPath(g.font.outline(gid), g.font.upem, variant, style.modifiers.letters.warp, style.modifiers.seed, `${g.font.id}:${gid}`),
        };
        page.items.push({ kind: 'glyph', ref, m, color: gh.color, opacity: gh.opacity });
      }
      if (line.text) page.lines.push({ x: x0, y: baseline, width: line.width, size, text: line.text, visual: line.visual });
    }
    pages.push(page);
  }
  return { pages, glyphs };
}

const NO_ALTERNATES: readonly Alternate[] = [];

/** The k-th of a letter's drawings (its usual one first) other than `skip`. */
function nthDrawing(usual: number, alts: readonly Alternate[], skip: number | undefined, k: number): Alternate {
  let left = k;
  if (usual !== skip && left-- === 0) return { gid: usual, shift: 0 };
  for (const d of alts) if (d.gid !== skip && left-- === 0) return d;
  return { gid: usual, shift: 0 };
}
