// A simple-text document → display list: page geometry from the template style, lines from
// text-layout.ts placed on the paper's rules, the handwriting applied to every glyph, paper drawn
// under it. Pure: fonts, seed and limits come in as arguments.
import { type DisplayList, type DisplayPage, MM } from '../display-list.ts';
import { type FontSource, type LoadedFont, loadFont } from '../text/fonts.ts';
import { Handwriting, mostShapes, Tiring } from '../hand/handwriting.ts';
import { pageSizePt } from './page-size.ts';
import { drawPaper } from './paper.ts';
import { linePitch, Pen, roomOf } from '../hand/pen.ts';
import type { LayoutLimits, Style } from '../spec.ts';
import { type Line, layoutParagraph, RenderError } from '../text/text-layout.ts';

export interface TextDocument {
  style: Style;
  text: string;
  /** The template's font first, then the fallback chain; bytes of each. */
  fonts: FontSource[];
  limits?: LayoutLimits;
}

export function renderText(doc: TextDocument): DisplayList {
  const { style } = doc;
  const maxPages = doc.limits?.maxPages ?? 200;
  const fonts: LoadedFont[] = doc.fonts.map(loadFont);
  const { width, height } = pageSizePt(style);
  const margin = {
    top: style.margins.top * MM,
    right: style.margins.right * MM,
    bottom: style.margins.bottom * MM,
    left: style.margins.left * MM,
  };
  const size = style.fontSize;
  const boxWidth = Math.max(size, width - margin.left - margin.right);
  const ruled = style.paper.type === 'lined' || style.paper.type === 'grid';
  const spacing = style.paper.spacing * MM;
  // On ruled paper every baseline sits on a rule; lines never come closer than the hand reaches.
  const pitch = linePitch(
    fonts[0]!,
    size,
    style.lineHeight,
    ruled ? spacing : null,
    mostShapes(style.modifiers),
  );
  const room = roomOf(fonts[0]!, size, pitch);
  const firstBaseline = ruled
    ? Math.ceil((margin.top + size * 0.8) / spacing) * spacing
    : margin.top + size * 0.8;

  const missing = new Set<string>();
  const lines: Line[] = [];
  /** Per line: a paragraph of one short line (a greeting, a signature, a blank between). */
  const closing: boolean[] = [];
  let words = 0;
  const tiring = new Tiring(style.modifiers);
  for (const paragraph of doc.text.replace(/\r\n?/g, '\n').split('\n')) {
    const laid = layoutParagraph(
      paragraph,
      fonts,
      {
        size,
        width: boxWidth,
        share: tiring.shareFor(boxWidth),
        letterSpacing: style.letterSpacing * MM,
        wordSpacing: style.wordSpacing * MM,
        firstLineIndent: style.firstLineIndent * MM,
        align: style.align,
      },
      words,
      missing,
    );
    lines.push(...laid.lines);
    for (const line of laid.lines) closing.push(isClosing(line, laid.lines.length, boxWidth));
    words += laid.words;
    tiring.wrote(paragraph);
  }
  if (missing.size > 0) {
    const list = [...missing].slice(0, 10).join(', ');
    throw new RenderError(
      'UNSUPPORTED_CHARACTERS',
      `no bundled font has ${missing.size > 10 ? `${missing.size} characters, among them ` : ''}${list}`,
    );
  }

  const maxLines = doc.limits?.maxLines;
  if (maxLines !== undefined && lines.length > maxLines) {
    throw new RenderError(
      'TOO_MANY_LINES',
      `the text makes ${lines.length} lines after wrapping, the most allowed is ${maxLines}`,
    );
  }
  const perPage = Math.max(1, Math.floor((height - margin.bottom - firstBaseline) / pitch) + 1);
  const pageCount = Math.max(1, Math.ceil(lines.length / perPage));
  if (pageCount > maxPages)
    throw new RenderError(
      'TOO_MANY_PAGES',
      `the document needs ${pageCount} pages, the most allowed is ${maxPages}`,
    );

  // Where each page starts. The closing lines of a letter (a greeting, a signature) never stand
  // alone on a last page: when it would hold nothing else, it takes KEEP_AT_END lines, from the
  // page before. The page before keeps as many of its own (a page that holds only a few lines
  // gives none). A last page that carries on the body of the text is left as it falls.
  const starts = Array.from({ length: pageCount }, (_, p) => p * perPage);
  if (pageCount > 1 && closing.slice(starts[pageCount - 1]!).every(Boolean)) {
    const last = Math.min(starts[pageCount - 1]!, lines.length - KEEP_AT_END);
    if (last - starts[pageCount - 2]! >= KEEP_AT_END) starts[pageCount - 1] = last;
  }
  const hand = new Handwriting(style.modifiers, style.color);
  const pen = new Pen(fonts, hand, doc.limits?.centrelines);
  const pages: DisplayPage[] = [];
  const drawn = Math.min(pageCount, doc.limits?.firstPages ?? pageCount);
  for (let p = 0; p < drawn; p++) {
    const baselines: number[] = [];
    for (let b = firstBaseline; b <= height - margin.bottom + 0.01; b += pitch) baselines.push(b);
    const page = blankPage(style, hand, { width, height }, { baselines, spacing, margin });
    const end = starts[p + 1] ?? lines.length;
    for (let i = 0; starts[p]! + i < end; i++) {
      pen.write(page, lines[starts[p]! + i]!, {
        left: margin.left,
        baseline: firstBaseline + i * pitch,
        size,
        room,
      });
    }
    pages.push(page);
  }
  return { pages, glyphs: pen.glyphs };
}

/** Lines the last page of a text takes at least, so that its closing lines are not left alone. */
const KEEP_AT_END = 3;
/** A closing line is a paragraph of one line at most this share of the text's width. */
const CLOSING_SHARE = 0.6;

/** Whether `line`, of a paragraph of `count` lines in a box `width` pt wide, may close a letter (a greeting, a signature). */
export function isClosing(line: Line, count: number, width: number): boolean {
  return count === 1 && line.width <= CLOSING_SHARE * width;
}

/** A sheet of the template's paper: background, sheet effects, rules, background image. */
export function blankPage(
  style: Style,
  hand: Handwriting,
  size: { width: number; height: number },
  rules: { baselines: number[]; spacing: number; margin: { top: number; left: number } },
): DisplayPage {
  const page: DisplayPage = {
    width: size.width,
    height: size.height,
    background: style.background?.color ?? style.paper.background,
    sheet: hand.sheet(),
    items: [],
    lines: [],
  };
  drawPaper(page, style.paper, rules);
  if (style.background?.assetId)
    page.items.unshift({
      kind: 'image',
      assetId: style.background.assetId,
      x: 0,
      y: 0,
      width: size.width,
      height: size.height,
    });
  return page;
}
