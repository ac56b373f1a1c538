// A simple-text document → display list: page geometry from the template style, lines from
// text-layout.ts placed on the paper's rules, the handwriting applied to every glyph, paper drawn
// under it. Pure: fonts, seed and limits come in as arguments.
import { type DisplayList, type DisplayPage, MM, type PageSink } from '../display-list.ts';
import { type FontSource, type LoadedFont, loadFont, loadFonts } from '../text/fonts.ts';
import { Handwriting, mostShapes, Tiring } from '../hand/handwriting.ts';
import { pageSizePt } from './page-size.ts';
import { drawPaper } from './paper.ts';
import { linePitch, Pen, roomOf } from '../hand/pen.ts';
import type { LayoutLimits, Style } from '../spec.ts';
import { type Line, layoutParagraph, RenderError, writesAll } from '../text/text-layout.ts';

export interface TextDocument {
  style: Style;
  text: string;
  /** The template's font first, then the fallback chain; bytes of each. */
  fonts: FontSource[];
  limits?: LayoutLimits;
  /** Takes each page as it is written, which is then not kept in the list (PageSink). */
  sink?: PageSink;
}

/**
 * The fonts of `sources` the text is written with: the hand alone where it writes every
 * character itself (writesAll), else the whole chain. The fallback hands (Nanum Pen Script is
 * 3.2 MB) are then not opened for a text that needs none of them: a render thread holds about
 * 5 MiB less, and the chain it was given decides nothing else (the hand is the first either way).
 */
function chainFor(sources: readonly FontSource[], text: string): LoadedFont[] {
  if (sources.length > 1) {
    const hand = loadFont(sources[0]!);
    if (writesAll(hand, text)) return [hand];
  }
  return loadFonts(sources);
}

export function renderText(doc: TextDocument): DisplayList {
  const { style } = doc;
  const maxPages = doc.limits?.maxPages ?? 200;
  const fonts: LoadedFont[] = chainFor(doc.fonts, doc.text);
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
  /** Each paragraph's layout in a measure, from the hand's state before it (words written, tiredness). */
  const paragraphs: { text: string; words: number; share: (at: number) => number; lines: Line[] }[] = [];
  const layOut = (text: string, words: number, share: (at: number) => number, measure: number) =>
    layoutParagraph(
      text,
      fonts,
      {
        size,
        width: measure,
        share,
        letterSpacing: style.letterSpacing * MM,
        wordSpacing: style.wordSpacing * MM,
        firstLineIndent: style.firstLineIndent * MM,
        align: style.align,
      },
      words,
      missing,
    );
  let words = 0;
  const tiring = new Tiring(style.modifiers);
  for (const text of doc.text.replace(/\r\n?/g, '\n').split('\n')) {
    const share = tiring.shareFor(boxWidth);
    const laid = layOut(text, words, share, boxWidth);
    paragraphs.push({ text, words, share, lines: laid.lines });
    words += laid.words;
    tiring.wrote(text);
  }
  if (missing.size > 0) {
    const list = [...missing].slice(0, 10).join(', ');
    throw new RenderError(
      'UNSUPPORTED_CHARACTERS',
      `no bundled font has ${missing.size > 10 ? `${missing.size} characters, among them ` : ''}${list}`,
    );
  }
  const perPage = Math.max(1, Math.floor((height - margin.bottom - firstBaseline) / pitch) + 1);
  // A paragraph of one short line (a greeting, a signature, a blank between) may close a letter.
  const closes = (laid: Line[]) => laid.length === 1 && isClosing(laid[0]!, 1, boxWidth);
  let lines = paragraphs.flatMap((para) => para.lines);

  // The closing lines of a letter never stand alone on its last page, and the page before is
  // written to its last rule: the paragraphs of the page before are written a little narrower,
  // so that the body runs on over the page with them, or a little wider, into the right margin,
  // so that they come up onto it (keepClosing). A letter whose body no measure moves is left as
  // it falls, as a writer turns the page for a signature.
  const alone = (laid: Line[][]) => {
    const count = laid.reduce((n, l) => n + l.length, 0);
    const pages = Math.ceil(count / perPage);
    if (pages < 2) return false;
    const from = (pages - 1) * perPage;
    let i = 0;
    for (const l of laid) {
      if (i + l.length > from && !closes(l)) return false;
      i += l.length;
    }
    return count - from < KEEP_AT_END;
  };
  if (alone(paragraphs.map((para) => para.lines))) {
    const pages = Math.ceil(lines.length / perPage);
    const before = (pages - 2) * perPage;
    // The paragraphs with a line on the page before the last that are not closing lines, the last first.
    const body: number[] = [];
    let i = 0;
    paragraphs.forEach((para, p) => {
      if (i + para.lines.length > before && i < before + perPage && !closes(para.lines)) body.unshift(p);
      i += para.lines.length;
    });
    const widest = boxWidth + margin.right * WIDEST_INTO_MARGIN;
    const found = keepClosing(body, boxWidth, widest, (reflow, measure) => {
      const laid = paragraphs.map((para, p) =>
        reflow.has(p) ? layOut(para.text, para.words, para.share, measure).lines : para.lines,
      );
      const all = laid.flat();
      return all.length > pages * perPage || alone(laid) ? null : all;
    });
    if (found) lines = found;
  }

  const maxLines = doc.limits?.maxLines;
  if (maxLines !== undefined && lines.length > maxLines) {
    throw new RenderError(
      'TOO_MANY_LINES',
      `the text makes ${lines.length} lines after wrapping, the most allowed is ${maxLines}`,
    );
  }
  const pageCount = Math.max(1, Math.ceil(lines.length / perPage));
  if (pageCount > maxPages)
    throw new RenderError(
      'TOO_MANY_PAGES',
      `the document needs ${pageCount} pages, the most allowed is ${maxPages}`,
    );
  const hand = new Handwriting(style.modifiers, style.color);
  const pen = new Pen(fonts, hand, doc.limits?.centrelines);
  const pages: DisplayPage[] = [];
  const drawn = Math.min(pageCount, doc.limits?.firstPages ?? pageCount);
  for (let p = 0; p < drawn; p++) {
    const baselines: number[] = [];
    for (let b = firstBaseline; b <= height - margin.bottom + 0.01; b += pitch) baselines.push(b);
    const page = blankPage(style, hand, { width, height }, { baselines, spacing, margin });
    const start = p * perPage;
    for (let i = 0; i < perPage && start + i < lines.length; i++) {
      pen.write(page, lines[start + i]!, {
        left: margin.left,
        baseline: firstBaseline + i * pitch,
        size,
        room,
      });
    }
    if (doc.sink) doc.sink(page, pen.glyphs);
    else pages.push(page);
  }
  return { pages, glyphs: pen.glyphs };
}

/** Lines the last page of a letter takes at least, so that its closing lines are not left alone. */
export const KEEP_AT_END = 3;
/** How far into the right margin a letter's body may run to bring its closing lines up, as a share of the margin. */
export const WIDEST_INTO_MARGIN = 0.5;
/** Measures tried for the body before a letter's closing lines, nearest the writer's own first. */
const CLOSING_MEASURES = [0.97, 1.04, 0.94, 1.08, 0.91, 0.88, 0.85];

/**
 * The first layout `attempt` accepts with the last paragraphs of the body before a letter's
 * closing lines (`body`, given the last first) written in one of CLOSING_MEASURES of `measure`,
 * none wider than `widest`: the last paragraph alone first, then the last two, the last three,
 * then all of them, as a writer who sees the end of the page coming changes as little as will do.
 */
export function keepClosing<P, T>(
  body: readonly P[],
  measure: number,
  widest: number,
  attempt: (reflow: ReadonlySet<P>, measure: number) => T | null,
): T | null {
  const counts = [...new Set([1, 2, 3, body.length])].filter((n) => n <= body.length);
  for (const n of counts) {
    const reflow = new Set(body.slice(0, n));
    for (const factor of CLOSING_MEASURES) {
      if (measure * factor > widest) continue;
      const found = attempt(reflow, measure * factor);
      if (found !== null) return found;
    }
  }
  return null;
}
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
