// A simple-text document → display list: page geometry from the template style, lines from
// text-layout.ts placed on the paper's rules, the handwriting applied to every glyph, paper drawn
// under it. Pure: fonts, seed and limits come in as arguments.
import type { Style } from '../domain/template.ts';
import { pageDimensionsMm } from '../domain/page-size.ts';
import { type DisplayList, type DisplayPage, MM, type Matrix } from './display-list.ts';
import { type FontSource, type LoadedFont, loadFont } from './fonts.ts';
import { Handwriting } from './handwriting.ts';
import { drawPaper } from './paper.ts';
import { type Line, layoutParagraph, RenderError } from './text-layout.ts';
import { variantPath } from './variants.ts';

export interface TextDocument {
  style: Style;
  text: string;
  /** The template's font first, then the fallback chain; bytes of each. */
  fonts: FontSource[];
  limits?: { maxPages?: number };
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

  const perPage = Math.max(1, Math.floor((height - margin.bottom - firstBaseline) / pitch) + 1);
  const pageCount = Math.max(1, Math.ceil(lines.length / perPage));
  if (pageCount > maxPages) throw new RenderError('TOO_MANY_PAGES', `the document needs ${pageCount} pages, the most allowed is ${maxPages}`);

  const hand = new Handwriting(style.modifiers, style.color, lines.reduce((n, l) => n + l.glyphs.length, 0));
  const glyphs: DisplayList['glyphs'] = {};
  const fontIndex = new Map(fonts.map((f, i) => [f, i]));
  /** Reference keys by number, so the hot loop does not build a string per glyph. */
  const refs = new Map<number, string>();
  const pages: DisplayPage[] = [];
  for (let p = 0; p < pageCount; p++) {
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
        // Font units (y up) → page (y down): scale, flip, rotate, move to the pen position.
        const m: Matrix = [s * cos, s * sin, s * sin, -s * cos, x, y];
        const fi = fontIndex.get(g.font)!;
        const refKey = fi * 0x1000000 + g.gid * 16 + gh.variant;
        let ref = refs.get(refKey);
        if (ref === undefined) {
          ref = `${fi}:${g.gid}:${gh.variant}`;
          refs.set(refKey, ref);
        }
        glyphs[ref] ??= {
          font: g.font.id,
          gid: g.gid,
          variant: gh.variant,
          scale: size / g.font.upem,
          path: variantPath(g.font.outline(g.gid), g.font.upem, gh.variant, style.modifiers.letters.warp, style.modifiers.seed, `${g.font.id}:${g.gid}`),
        };
        page.items.push({ kind: 'glyph', ref, m, color: gh.color, opacity: gh.opacity });
      }
      if (line.text) page.lines.push({ x: x0, y: baseline, width: line.width, size, text: line.text, visual: line.visual });
    }
    pages.push(page);
  }
  return { pages, glyphs };
}
