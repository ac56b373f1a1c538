// Structured documents → display list: the blocks of a structured template or of Document v1
// content (src/domain/document.ts) flowed down the pages in the template's hand. Headings are
// larger and written in the font's bold cut (or gone over twice when it has none); list markers
// and numbers are written like the text; tables, dividers and their rules are drawn by hand;
// images are placed from their assets; columns run side by side, each a flow of its own. On
// lined and grid paper every baseline sits on a rule. Pure: fonts, image sizes, seed and limits
// come in as arguments.
import { type DisplayList, type DisplayPage, MM } from '../display-list.ts';
import { blankPage, isClosing, KEEP_AT_END, keepClosing, WIDEST_INTO_MARGIN } from './document.ts';
import { type FontSource, type LoadedFont, loadFonts } from '../text/fonts.ts';
import { Handwriting, mostShapes, Tiring } from '../hand/handwriting.ts';
import { pageSizePt } from './page-size.ts';
import { linePitch, Pen, roomOf } from '../hand/pen.ts';
import { Random } from '../prng.ts';
import type { Block, LayoutLimits, Style } from '../spec.ts';
import { handLine } from '../hand/strokes.ts';
import { type Line, layoutParagraph, RenderError, type TextMetrics } from '../text/text-layout.ts';

export interface BlockDocument {
  style: Style;
  blocks: Block[];
  /** The template's font first, then the fallback chain. */
  fonts: FontSource[];
  /** Headings: the bold cut of the template's font and the chain; `overstrike` when there is no bold cut. */
  headings: { fonts: FontSource[]; overstrike: boolean };
  /** Pixel size of every image asset the blocks place. */
  images: Record<string, { width: number; height: number }>;
  /** As for simple text: `maxPages` (TOO_MANY_PAGES past it) and `firstPages` (a preview). */
  limits?: LayoutLimits;
}

const HEADING_SCALE = { 1: 1.7, 2: 1.4, 3: 1.18 } as const;
const OVERSTRIKE = 0.035;

interface Cursor {
  page: number;
  /** Top of the free space on the page. */
  y: number;
  /** Baseline of the last line written in this flow, while text runs on; null after anything else. */
  last: number | null;
  left: number;
  width: number;
}

export function renderBlocks(doc: BlockDocument): DisplayList {
  // The closing lines of a document (a greeting, a signature) never stand alone on its last
  // page, and the page before is written to its last rule: when they would, the document is
  // written again with the last paragraphs of the page before a little narrower or wider
  // (keepClosing; the same seed writes the same hand). A document no measure mends is left as
  // it falls, as a writer turns the page for a signature.
  const first = new Flow(doc);
  const list = first.run();
  const body = first.closingAlone();
  if (body === null) return list;
  return (
    keepClosing(
      body,
      first.measure,
      first.measure + first.rightMargin * WIDEST_INTO_MARGIN,
      (paragraphs, width) => {
        const again = new Flow(doc, { paragraphs, width });
        const written = again.run();
        return again.pagesWritten <= first.pagesWritten && again.closingAlone() === null ? written : null;
      },
    ) ?? list
  );
}

class Flow {
  private readonly style: Style;
  private readonly fonts: LoadedFont[];
  private readonly headingFonts: LoadedFont[];
  private readonly pen: Pen;
  private readonly hand: Handwriting;
  private readonly strokes: Random;
  private readonly pages: DisplayPage[] = [];
  /** Pages past a preview's first ones are laid out but drawn nowhere. */
  private readonly scratch: DisplayPage;
  private readonly width: number;
  private readonly height: number;
  private readonly top: number;
  private readonly bottom: number;
  private readonly margin: { top: number; right: number; bottom: number; left: number };
  private readonly size: number;
  private readonly ruled: boolean;
  private readonly spacing: number;
  private readonly maxPages: number;
  private readonly drawnPages: number;
  private readonly missing = new Set<string>();
  private words = 0;
  /** How far into the document the layout is: how tired the hand will be writing the next line. */
  private readonly tiring: Tiring;
  private pageCount = 0;
  /** Text lines of the main flow (not in columns or tables), counted through the document. */
  private lineSeq = 0;
  /** Paragraph blocks of the main flow, counted through the document. */
  private paragraphSeq = 0;
  /**
   * Per page: its main-flow text lines, the main-flow paragraphs with a line on it that are not
   * closing lines, whether anything else is on it, and whether a page break block began it.
   */
  private readonly log: {
    lines: number[];
    body: number[];
    other: boolean;
    broken: boolean;
    endsWithLine: boolean;
  }[] = [];
  private root: Cursor | null = null;
  /** Main-flow lines that may close a letter (isClosing). */
  private readonly closingLines = new Set<number>();
  /** Lines laid out as a paragraph of their own that may close a letter. */
  private readonly closingLine = new WeakSet<Line>();

  constructor(
    private readonly doc: BlockDocument,
    /** Main-flow paragraphs written in another measure (renderBlocks, keepClosing). */
    private readonly reflow: { paragraphs: ReadonlySet<number>; width: number } | null = null,
  ) {
    const { style } = doc;
    this.style = style;
    this.fonts = loadFonts(doc.fonts);
    this.headingFonts = loadFonts(doc.headings.fonts);
    const { width, height } = pageSizePt(style);
    this.width = width;
    this.height = height;
    this.margin = {
      top: style.margins.top * MM,
      right: style.margins.right * MM,
      bottom: style.margins.bottom * MM,
      left: style.margins.left * MM,
    };
    this.top = this.margin.top;
    this.bottom = height - this.margin.bottom;
    this.size = style.fontSize;
    this.ruled = style.paper.type === 'lined' || style.paper.type === 'grid';
    this.spacing = style.paper.spacing * MM;
    this.maxPages = doc.limits?.maxPages ?? 200;
    this.drawnPages = doc.limits?.firstPages ?? Number.POSITIVE_INFINITY;
    this.hand = new Handwriting(style.modifiers, style.color);
    this.tiring = new Tiring(style.modifiers);
    this.pen = new Pen(
      [...this.fonts, ...this.headingFonts.filter((f) => !this.fonts.includes(f))],
      this.hand,
      doc.limits?.centrelines,
    );
    this.strokes = new Random(style.modifiers.seed, 'strokes');
    this.scratch = {
      width,
      height,
      background: '',
      sheet: { tilt: 0, shadow: 0, texture: 0, bleed: 0, pool: 0, dry: 0, scanner: false, seed: 0 },
      items: [],
      lines: [],
    };
  }

  run(): DisplayList {
    const cur: Cursor = {
      page: 0,
      y: this.top,
      last: null,
      left: this.margin.left,
      width: this.measure,
    };
    this.root = cur;
    this.at(0);
    this.flow(this.doc.blocks, cur);
    if (this.missing.size > 0) {
      const list = [...this.missing].slice(0, 10).join(', ');
      throw new RenderError(
        'UNSUPPORTED_CHARACTERS',
        `no bundled font has ${this.missing.size > 10 ? `${this.missing.size} characters, among them ` : ''}${list}`,
      );
    }
    return { pages: this.pages, glyphs: this.pen.glyphs };
  }

  // ----- geometry

  /** Baseline-to-baseline distance for a size: on ruled paper a whole number of rules. */
  private pitch(size: number): number {
    return linePitch(
      this.fonts[0]!,
      size,
      this.style.lineHeight,
      this.ruled ? this.spacing : null,
      mostShapes(this.style.modifiers),
    );
  }

  /** The first rule at or below y (ruled paper), or y itself. */
  private snap(y: number): number {
    return this.ruled ? Math.ceil((y - 0.01) / this.spacing) * this.spacing : y;
  }

  /** The page, created with its paper when first reached; past the page cap the document is refused. */
  private at(index: number): DisplayPage {
    if (index >= this.maxPages)
      throw new RenderError(
        'TOO_MANY_PAGES',
        `the document needs more than ${this.maxPages} pages, the most allowed is ${this.maxPages}`,
      );
    while (this.pageCount <= index) {
      const n = this.pageCount++;
      if (n >= this.drawnPages) continue;
      const baselines: number[] = [];
      for (
        let b = this.snap(this.top + this.size * 0.8);
        b <= this.bottom + 0.01;
        b += this.ruled ? this.spacing : this.pitch(this.size)
      )
        baselines.push(b);
      this.pages.push(
        blankPage(
          this.style,
          this.hand,
          { width: this.width, height: this.height },
          { baselines, spacing: this.spacing, margin: this.margin },
        ),
      );
    }
    return index < this.drawnPages ? this.pages[index]! : this.scratch;
  }

  /** Pages the document took. */
  get pagesWritten(): number {
    return this.pageCount;
  }

  /** The main flow's measure. */
  get measure(): number {
    return Math.max(this.size, this.width - this.margin.left - this.margin.right);
  }

  get rightMargin(): number {
    return this.margin.right;
  }

  /**
   * When the closing lines of the document stand alone on its last page (fewer than KEEP_AT_END
   * lines, all closing lines, nothing else on it, and not begun by a page break, after a page
   * that ends with text): the main-flow paragraphs of the page before, the last first. Else null.
   */
  closingAlone(): number[] | null {
    const last = this.log.length - 1;
    if (last < 1) return null;
    const end = this.log[last]!;
    const before = this.log[last - 1]!;
    if (end.broken || end.other || end.lines.length === 0 || end.lines.length >= KEEP_AT_END) return null;
    if (!end.lines.every((seq) => this.closingLines.has(seq))) return null;
    if (!before.endsWithLine || before.body.length === 0) return null;
    return [...before.body].reverse();
  }

  private logOf(page: number) {
    while (this.log.length <= page)
      this.log.push({ lines: [], body: [], other: false, broken: false, endsWithLine: false });
    return this.log[page]!;
  }

  /** Something other than a main-flow line of text was put on the cursor's page. */
  private other(page: number): void {
    const log = this.logOf(page);
    log.other = true;
    log.endsWithLine = false;
  }

  private nextPage(cur: Cursor): void {
    cur.page++;
    cur.y = this.top;
    cur.last = null;
    this.at(cur.page);
  }

  // ----- text

  private metrics(size: number, width: number, align: TextMetrics['align'], indent = 0): TextMetrics {
    return {
      size,
      width,
      letterSpacing: this.style.letterSpacing * MM,
      wordSpacing: this.style.wordSpacing * MM,
      firstLineIndent: indent,
      align,
    };
  }

  /** Lines of a text that may hold line breaks (each a paragraph of its own). */
  private lines(text: string, fonts: LoadedFont[], m: TextMetrics): Line[] {
    const out: Line[] = [];
    for (const para of text.replace(/\r\n?/g, '\n').split('\n')) {
      const laid = layoutParagraph(
        para,
        fonts,
        { ...m, share: this.tiring.shareFor(m.width) },
        this.words,
        this.missing,
      );
      this.words += laid.words;
      this.tiring.wrote(para);
      for (const line of laid.lines)
        if (isClosing(line, laid.lines.length, m.width)) this.closingLine.add(line);
      out.push(...laid.lines);
    }
    return out;
  }

  /**
   * The baseline of the next line of `size` in this flow: one pitch under the last line while
   * text runs on (plus `gap`), else under the free space's top; on the next page if it does not fit.
   */
  private baseline(cur: Cursor, size: number, gap = 0): number {
    let b =
      cur.last !== null ? this.snap(cur.last + this.pitch(size) + gap) : this.snap(cur.y + gap + size * 0.8);
    if (b > this.bottom + 0.01) {
      this.nextPage(cur);
      b = this.snap(this.top + size * 0.8);
    }
    return b;
  }

  private writeLines(
    cur: Cursor,
    lines: Line[],
    size: number,
    opts: {
      gap?: number;
      indent?: number;
      overstrike?: number;
      marker?: Line;
      fonts?: LoadedFont[];
      heading?: boolean;
      /** The main-flow paragraph the lines are, unless they close the document. */
      paragraph?: number;
    } = {},
  ): void {
    const room = roomOf((opts.fonts ?? this.fonts)[0]!, size, this.pitch(size));
    const main = cur === this.root;
    lines.forEach((line, i) => {
      const seq = main ? this.lineSeq++ : -1;
      const b = this.baseline(cur, size, i === 0 ? (opts.gap ?? 0) : 0);
      const page = this.at(cur.page);
      if (main) {
        const log = this.logOf(cur.page);
        log.lines.push(seq);
        log.endsWithLine = true;
        if (!opts.heading && !opts.marker && this.closingLine.has(line)) this.closingLines.add(seq);
        if (opts.paragraph !== undefined && log.body.at(-1) !== opts.paragraph) log.body.push(opts.paragraph);
      } else this.other(cur.page);
      const lineHand = this.pen.write(page, line, {
        left: cur.left + (opts.indent ?? 0),
        baseline: b,
        size,
        overstrike: opts.overstrike,
        room,
      });
      // The marker of a list item is written in the same movement as its first line.
      if (i === 0 && opts.marker)
        this.pen.write(page, opts.marker, { left: cur.left, baseline: b, size }, lineHand);
      cur.last = b;
      cur.y = b + size * 0.35;
    });
  }

  /** Space between blocks of text: the next rule on ruled paper, a little air on blank paper. */
  private get paragraphGap(): number {
    return this.ruled ? 0 : this.size * 0.35;
  }

  // ----- blocks

  private flow(blocks: Block[], cur: Cursor): void {
    for (const b of blocks) this.block(b, cur);
  }

  private block(b: Block, cur: Cursor): void {
    const ink = this.style.color;
    switch (b.type) {
      case 'paragraph': {
        const size = b.size ?? this.size;
        this.hand.setInk(b.color ?? ink);
        const main = cur === this.root;
        const seq = main ? this.paragraphSeq++ : -1;
        const width = main && this.reflow?.paragraphs.has(seq) ? this.reflow.width : cur.width;
        const lines = this.lines(
          b.text,
          this.fonts,
          this.metrics(size, width, b.align ?? this.style.align, this.style.firstLineIndent * MM),
        );
        const closes = lines.length === 1 && this.closingLine.has(lines[0]!);
        this.writeLines(cur, lines, size, {
          gap: cur.last !== null ? this.paragraphGap : 0,
          ...(main && !closes ? { paragraph: seq } : {}),
        });
        return;
      }
      case 'heading': {
        const size = b.size ?? this.size * HEADING_SCALE[b.level];
        this.hand.setInk(b.color ?? ink);
        const lines = this.lines(
          b.text,
          this.headingFonts,
          this.metrics(
            size,
            cur.width,
            b.align ?? (this.style.align === 'justify' ? 'left' : this.style.align),
          ),
        );
        // Air above (unless at the top of the page), and never alone at the foot of a page.
        const atTop = cur.last === null && cur.y <= this.top + 0.01;
        let gap = atTop ? 0 : this.ruled ? this.spacing * 0.5 : this.size * 0.6;
        const first =
          cur.last !== null
            ? this.snap(cur.last + this.pitch(size) + gap)
            : this.snap(cur.y + gap + size * 0.8);
        if (
          !atTop &&
          first + (lines.length - 1) * this.pitch(size) + this.pitch(this.size) > this.bottom + 0.01
        ) {
          this.nextPage(cur);
          gap = 0;
        }
        this.writeLines(cur, lines, size, {
          gap,
          overstrike: this.doc.headings.overstrike ? OVERSTRIKE : 0,
          fonts: this.headingFonts,
          heading: true,
        });
        return;
      }
      case 'list': {
        const size = b.size ?? this.size;
        this.hand.setInk(b.color ?? ink);
        const indent = size * (b.ordered ? 1.9 : 1.3);
        b.items.forEach((item, i) => {
          const label = b.ordered ? `${b.start + i}.` : '\u2022';
          const [marker] = this.lines(label, this.fonts, this.metrics(size, indent - size * 0.35, 'right'));
          const lines = this.lines(
            item,
            this.fonts,
            this.metrics(size, Math.max(size, cur.width - indent), 'left'),
          );
          this.writeLines(cur, lines, size, {
            indent,
            marker,
            gap: i === 0 && cur.last !== null ? this.paragraphGap : 0,
          });
        });
        return;
      }
      case 'image':
      case 'table':
      case 'columns': {
        const from = cur.page;
        if (b.type === 'image') this.image(b, cur);
        else if (b.type === 'table') this.table(b, cur);
        else this.columns(b, cur);
        for (let p = from; p <= cur.page; p++) this.other(p);
        return;
      }
      case 'divider': {
        this.hand.setInk(ink);
        const y = this.ruled
          ? this.snap(this.after(cur)) + this.spacing / 2
          : this.after(cur) + this.size * 0.5;
        if (y > this.bottom) {
          this.nextPage(cur);
          return;
        }
        this.line(cur.page, cur.left, y, cur.left + cur.width, y, 1);
        this.other(cur.page);
        cur.y = y + (this.ruled ? this.spacing / 2 : this.size * 0.5);
        cur.last = null;
        return;
      }
      case 'spacer': {
        cur.y = this.after(cur) + b.height;
        cur.last = null;
        if (cur.y > this.bottom) this.nextPage(cur);
        return;
      }
      case 'pageBreak':
        this.nextPage(cur);
        this.logOf(cur.page).broken = true;
        return;
    }
  }

  /** Top of the free space under whatever came last. */
  private after(cur: Cursor): number {
    return cur.last !== null ? cur.last + this.size * 0.35 : cur.y;
  }

  /** A hand-drawn line in the ink of the text, a little lighter. */
  private line(page: number, x1: number, y1: number, x2: number, y2: number, weight: number): void {
    this.at(page).items.push(
      handLine(this.strokes, x1, y1, x2, y2, {
        width: 0.7 * weight * Math.max(0.6, this.size / 16),
        color: this.hand.inkColor,
        opacity: 0.9,
        wobble: 1,
      }),
    );
  }

  private image(b: Extract<Block, { type: 'image' }>, cur: Cursor): void {
    const px = this.doc.images[b.assetId];
    if (!px) throw new RenderError('MISSING_ASSET', `image ${b.assetId} was not supplied`);
    let w = cur.width * b.width;
    let h = (w * px.height) / px.width;
    const room = this.bottom - this.top;
    if (h > room) [w, h] = [(w * room) / h, room];
    let y = this.after(cur) + (cur.last !== null || cur.y > this.top + 0.01 ? this.size * 0.3 : 0);
    if (y + h > this.bottom + 0.01) {
      this.nextPage(cur);
      y = this.top;
    }
    const x =
      b.align === 'center'
        ? cur.left + (cur.width - w) / 2
        : b.align === 'right'
          ? cur.left + cur.width - w
          : cur.left;
    this.at(cur.page).items.push({ kind: 'image', assetId: b.assetId, x, y, width: w, height: h });
    cur.y = y + h + this.size * 0.3;
    cur.last = null;
  }

  private columns(b: Extract<Block, { type: 'columns' }>, cur: Cursor): void {
    const gaps = b.gap * (b.columns.length - 1);
    const usable = Math.max(this.size * b.columns.length, cur.width - gaps);
    const start = { page: cur.page, y: this.after(cur) };
    let x = cur.left;
    let end = { page: cur.page, y: start.y };
    b.columns.forEach((blocks, i) => {
      const width = usable * b.widths[i]!;
      const col: Cursor = { page: start.page, y: start.y, last: null, left: x, width };
      this.flow(blocks, col);
      const bottom = col.last !== null ? col.last + this.size * 0.35 : col.y;
      if (col.page > end.page || (col.page === end.page && bottom > end.y))
        end = { page: col.page, y: bottom };
      x += width + b.gap;
    });
    cur.page = end.page;
    cur.y = end.y;
    cur.last = null;
  }

  private table(b: Extract<Block, { type: 'table' }>, cur: Cursor): void {
    const size = this.size;
    const pad = size * 0.3;
    const p = this.pitch(size);
    // Above the first line and below the last, the padding and the hand's reach (a tall hand's
    // loops stay inside their row).
    const { reach, upem } = this.fonts[0]!;
    const [up, down] = [
      Math.max(0.8, reach.ascent / upem) * size,
      Math.max(0.3, reach.descent / upem) * size,
    ];
    const lead = this.ruled ? this.spacing * Math.ceil((pad + up) / this.spacing) : pad + up;
    const tail = this.ruled ? this.spacing * Math.ceil((pad + down) / this.spacing) : pad + down;
    const need = (lines: number) => lead + (Math.max(1, lines) - 1) * p + tail;
    const xs = [cur.left];
    for (const w of b.widths) xs.push(xs[xs.length - 1]! + cur.width * w);
    const cellWidth = (i: number) => Math.max(size, xs[i + 1]! - xs[i]! - 2 * pad);
    const layoutRow = (cells: string[], fonts: LoadedFont[]) =>
      cells.map((c, i) => this.lines(c, fonts, this.metrics(size, cellWidth(i), 'left')));
    this.hand.setInk(this.style.color);
    const header = b.header ? layoutRow(b.header, this.headingFonts) : null;
    const headerHeight = header ? need(Math.max(...header.map((c) => c.length))) : 0;

    let top = this.snap(this.after(cur) + (cur.last !== null ? size * 0.3 : 0));
    let segment = { top, rows: [top] };
    const closeSegment = () => {
      const bottom = segment.rows[segment.rows.length - 1]!;
      if (bottom <= segment.top) return;
      for (const y of segment.rows) this.line(cur.page, xs[0]!, y, xs[xs.length - 1]!, y, 1);
      for (const x of xs) this.line(cur.page, x, segment.top, x, bottom, 1);
    };
    /** Writes lines from..from+count of each cell in a row starting at `top`. */
    // The cell's padding takes the hand's wobble: a line's ink stays off the row's rules (a point
    // clear of them), and its start wanders no further than half the padding.
    const between = roomOf(this.fonts[0]!, size, p);
    const writeRow = (cells: Line[][], from: number, count: number, bold: boolean) => {
      const page = this.at(cur.page);
      cells.forEach((lines, i) => {
        for (let j = 0; j < count && from + j < lines.length; j++) {
          this.pen.write(page, lines[from + j]!, {
            left: xs[i]! + pad,
            baseline: top + lead + j * p,
            size,
            overstrike: bold && this.doc.headings.overstrike ? OVERSTRIKE : 0,
            room: {
              above: j === 0 ? lead - 1 : between.above,
              below: j === count - 1 ? tail - 1 : between.below,
            },
            wobble: pad / 2,
          });
        }
      });
      top += need(count);
      segment.rows.push(top);
    };
    const newSegment = () => {
      closeSegment();
      this.nextPage(cur);
      top = this.snap(this.top);
      segment = { top, rows: [top] };
      if (header) writeRow(header, 0, Math.max(...header.map((c) => c.length)), true);
    };
    if (header) {
      if (top + headerHeight + need(1) > this.bottom + 0.01) newSegment();
      else writeRow(header, 0, Math.max(...header.map((c) => c.length)), true);
    }
    const fresh = () => top <= segment.top + headerHeight + 0.01;
    for (const row of b.rows) {
      const cells = layoutRow(row, this.fonts);
      const total = Math.max(1, ...cells.map((c) => c.length));
      let done = 0;
      while (done < total) {
        const left = total - done;
        if (top + need(left) <= this.bottom + 0.01) {
          writeRow(cells, done, left, false);
          done = total;
          break;
        }
        // Keep a row whole when a fresh page would hold it; split it only when none would.
        if (!fresh() && this.snap(this.top) + headerHeight + need(left) <= this.bottom + 0.01) {
          newSegment();
          continue;
        }
        let fit = 0;
        while (fit < left && top + need(fit + 1) <= this.bottom + 0.01) fit++;
        if (fit > 0) {
          writeRow(cells, done, fit, false);
          done += fit;
        }
        if (done < total) newSegment();
      }
    }
    closeSegment();
    cur.y = top + size * 0.3;
    cur.last = null;
  }
}
