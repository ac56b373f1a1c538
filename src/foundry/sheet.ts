// The sample sheet a person fills in by hand to make a personal font of their own handwriting
// (docs/sample-sheet.md): a box for every character of a set, three for each lowercase letter and
// two for each capital so that the hand gives several drawings of each, with a baseline and an
// x-height guide in every box, four registration marks and a code that says the layout, the set
// and the page. The layout is numbers in mm from the page's top-left corner; the writer draws it
// with pdf-lib (everything a scan must drop, box, guides and label, light; the marks and the code
// cells solid black) and the scan reader finds it again from the same numbers.

export const SHEET_VERSION = 1;

export const SHEET_PAPERS = {
  a4: { name: 'A4', width: 210, height: 297 },
  letter: { name: 'Letter', width: 215.9, height: 279.4 },
} as const;
export type SheetPaper = keyof typeof SHEET_PAPERS;

const range = (from: string, to: string) =>
  Array.from({ length: to.codePointAt(0)! - from.codePointAt(0)! + 1 }, (_, i) =>
    String.fromCodePoint(from.codePointAt(0)! + i),
  );
const LOWER = range('a', 'z');
const UPPER = range('A', 'Z');
const DIGITS = range('0', '9');
const PUNCTUATION = [...'.,;:!?\'"-()/&@#%*+='];
const CURRENCY = [...'$€£¥¢'];
/** Latin-1's letters with accents (and æ, ð, ø, þ, ß), lowercase and capital. */
const ACCENTED_LOWER = [...'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿß'];
const ACCENTED_UPPER = [...'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞ'];

/** Letters a pen joins into one drawing, written whole (the engine and other software use them under `liga`). */
export const LIGATURES = ['th', 'ff', 'fi', 'fl', 'tt', 'll', 'oo', 'ee'] as const;

/** How many drawings the sheet asks of a character: three of a lowercase letter, two of a capital, a digit or a ligature. */
export function variantsOf(char: string): number {
  if ([...char].length > 1) return 2;
  if (char.toLowerCase() !== char.toUpperCase()) return char === char.toLowerCase() ? 3 : 2;
  return DIGITS.includes(char) ? 2 : 1;
}

export const SHEET_SETS = {
  /** Basic Latin: letters, digits, punctuation and currency signs. */
  basic: { id: 1, chars: [...LOWER, ...UPPER, ...DIGITS, ...PUNCTUATION, ...CURRENCY] },
  /** Basic Latin and Latin-1's letters with accents. */
  latin1: {
    id: 2,
    chars: [...LOWER, ...ACCENTED_LOWER, ...UPPER, ...ACCENTED_UPPER, ...DIGITS, ...PUNCTUATION, ...CURRENCY],
  },
  /** Basic Latin and letters a pen joins: th, ff, fi, fl, tt, ll, oo, ee. */
  ligatures: { id: 3, chars: [...LOWER, ...UPPER, ...DIGITS, ...PUNCTUATION, ...CURRENCY, ...LIGATURES] },
} as const;
export type SheetSet = keyof typeof SHEET_SETS;

/** A box for one drawing of a character. Lengths in mm; `baseline` and `xHeight` from the box's top. */
export interface SheetBox {
  char: string;
  /** 1 to 3: which of the character's drawings. */
  variant: number;
  /** 1-based page of the sheet. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  baseline: number;
  xHeight: number;
}

export interface SheetLayout {
  /** The layout and the set: `SCR1-BASIC-A4`. Each page prints it with its number: `SCR1-BASIC-A4/2`. */
  code: string;
  version: number;
  set: SheetSet;
  paper: { name: string; width: number; height: number };
  pages: number;
  /** The registration marks, the same on every page: solid squares, `x`/`y` their top-left corner. */
  marks: { x: number; y: number; size: number }[];
  /** Where each page's code is printed as dark cells (a 1 bit) in a row (docs/sample-sheet.md). */
  codeCells: { x: number; y: number; size: number; count: number };
  boxes: SheetBox[];
}

/** The sheet's geometry, in mm. */
export const SHEET_GEOMETRY = {
  mark: { inset: 8, size: 7 },
  margin: 15,
  /** Title, code and instructions above the first row. */
  header: 24,
  box: { width: 17, height: 22, gap: 2, baseline: 15, xHeight: 10, label: 3.5 },
  cell: 3.5,
} as const;

const CODE_BITS = 20;

export function sheetLayout(set: SheetSet, paperName: SheetPaper): SheetLayout {
  const paper = SHEET_PAPERS[paperName];
  const g = SHEET_GEOMETRY;
  const { width: bw, height: bh, gap } = g.box;
  const usableW = paper.width - 2 * g.margin;
  const top = g.margin + g.header;
  const usableH = paper.height - top - g.margin;
  const columns = Math.floor((usableW + gap) / (bw + gap));
  const rows = Math.floor((usableH + gap) / (bh + gap));
  const left = g.margin + (usableW - (columns * (bw + gap) - gap)) / 2;
  const perPage = columns * rows;
  const chars = SHEET_SETS[set].chars.flatMap((char) =>
    Array.from({ length: variantsOf(char) }, (_, v) => ({ char, variant: v + 1 })),
  );
  const round = (n: number) => Math.round(n * 100) / 100;
  const boxes = chars.map(({ char, variant }, i) => {
    const at = i % perPage;
    return {
      char,
      variant,
      page: Math.floor(i / perPage) + 1,
      x: round(left + (at % columns) * (bw + gap)),
      y: round(top + Math.floor(at / columns) * (bh + gap)),
      width: bw,
      height: bh,
      baseline: g.box.baseline,
      xHeight: g.box.xHeight,
    };
  });
  const { inset, size } = g.mark;
  const cellsWidth = CODE_BITS * g.cell;
  return {
    code: `SCR${SHEET_VERSION}-${set.toUpperCase()}-${paper.name.toUpperCase()}`,
    version: SHEET_VERSION,
    set,
    paper: { ...paper },
    pages: Math.ceil(chars.length / perPage),
    marks: [
      { x: inset, y: inset, size },
      { x: round(paper.width - inset - size), y: inset, size },
      { x: inset, y: round(paper.height - inset - size), size },
      { x: round(paper.width - inset - size), y: round(paper.height - inset - size), size },
    ],
    codeCells: { x: round((paper.width - cellsWidth) / 2), y: inset, size: g.cell, count: CODE_BITS },
    boxes,
  };
}

/** What a page's code cells say: the layout's version, set and paper, and the page. */
export interface SheetCode {
  version: number;
  set: SheetSet;
  paper: SheetPaper;
  page: number;
  pages: number;
}

/**
 * A page's code as its cells' bits, first cell first: version (3 bits), set (3), paper (2), page
 * (4), pages (4), then a check of 4 bits (the sum of the four nibbles, modulo 16).
 */
export function sheetCodeBits(code: SheetCode): boolean[] {
  const paper = Object.keys(SHEET_PAPERS).indexOf(code.paper);
  const data =
    (code.version << 13) | (SHEET_SETS[code.set].id << 10) | (paper << 8) | (code.page << 4) | code.pages;
  const check = ((data >> 12) + ((data >> 8) & 15) + ((data >> 4) & 15) + (data & 15)) & 15;
  const word = (data << 4) | check;
  return Array.from({ length: CODE_BITS }, (_, i) => ((word >> (CODE_BITS - 1 - i)) & 1) === 1);
}

/** The code the cells say, or null when they say none (a check that fails, an unknown set). */
export function readSheetCode(bits: boolean[]): SheetCode | null {
  if (bits.length !== CODE_BITS) return null;
  const word = bits.reduce((w, b) => (w << 1) | (b ? 1 : 0), 0);
  const data = word >> 4;
  const check = ((data >> 12) + ((data >> 8) & 15) + ((data >> 4) & 15) + (data & 15)) & 15;
  if ((word & 15) !== check) return null;
  const set = (Object.keys(SHEET_SETS) as SheetSet[]).find((s) => SHEET_SETS[s].id === ((data >> 10) & 7));
  const paper = (Object.keys(SHEET_PAPERS) as SheetPaper[])[(data >> 8) & 3];
  const page = (data >> 4) & 15;
  const pages = data & 15;
  if (!set || !paper || page < 1 || page > pages) return null;
  return { version: data >> 13, set, paper, page, pages };
}

const PT_PER_MM = 72 / 25.4;

export async function writeSheet(layout: SheetLayout, opts: { createdAt: Date }): Promise<Uint8Array> {
  // Loaded when a sheet is drawn, not with the engine: a render thread's heap stays as it was.
  const { PDFDocument, rgb, StandardFonts } = await import('@cantoo/pdf-lib');
  const GUIDE = rgb(0.62, 0.78, 0.93);
  const FRAME = rgb(0.78, 0.78, 0.78);
  const LABEL = rgb(0.58, 0.58, 0.58);
  const INK = rgb(0, 0, 0);
  const doc = await PDFDocument.create();
  doc.setTitle(`Handwriting sample sheet ${layout.code}`);
  doc.setProducer('Scriptorium');
  doc.setCreator('Scriptorium');
  doc.setCreationDate(opts.createdAt);
  doc.setModificationDate(opts.createdAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const { width, height } = layout.paper;
  const mm = (v: number) => v * PT_PER_MM;
  /** A y in mm from the page's top as PDF points from its bottom. */
  const y = (v: number) => mm(height - v);
  for (let page = 1; page <= layout.pages; page++) {
    const p = doc.addPage([mm(width), mm(height)]);
    for (const m of layout.marks)
      p.drawRectangle({ x: mm(m.x), y: y(m.y + m.size), width: mm(m.size), height: mm(m.size), color: INK });
    const cells = layout.codeCells;
    const [version, set, paper] = [
      layout.version,
      layout.set,
      layout.paper.name === 'A4' ? 'a4' : 'letter',
    ] as const;
    sheetCodeBits({ version, set, paper, page, pages: layout.pages }).forEach((bit, i) => {
      const at = { x: mm(cells.x + i * cells.size), y: y(cells.y + cells.size), size: mm(cells.size) };
      if (bit) p.drawRectangle({ x: at.x, y: at.y, width: at.size, height: at.size, color: INK });
    });
    const code = `${layout.code}/${page}`;
    const g = SHEET_GEOMETRY;
    p.drawText(`Handwriting sample sheet, page ${page} of ${layout.pages}`, {
      x: mm(g.margin),
      y: y(g.margin + 5),
      size: 11,
      font: bold,
    });
    p.drawText(code, {
      x: mm(width - g.margin) - font.widthOfTextAtSize(code, 9),
      y: y(g.margin + 5),
      size: 9,
      font,
    });
    p.drawText(
      'Write each character once in its box with a dark pen, sitting on the blue baseline, its small letters reaching the dashed line.',
      { x: mm(g.margin), y: y(g.margin + 11), size: 7.5, font, color: LABEL },
    );
    p.drawText('Keep the black squares and the code clear; scan or photograph the whole page, square on.', {
      x: mm(g.margin),
      y: y(g.margin + 15),
      size: 7.5,
      font,
      color: LABEL,
    });
    for (const b of layout.boxes) {
      if (b.page !== page) continue;
      p.drawRectangle({
        x: mm(b.x),
        y: y(b.y + b.height),
        width: mm(b.width),
        height: mm(b.height),
        borderColor: FRAME,
        borderWidth: 0.5,
      });
      p.drawLine({
        start: { x: mm(b.x), y: y(b.y + b.baseline) },
        end: { x: mm(b.x + b.width), y: y(b.y + b.baseline) },
        thickness: 0.6,
        color: GUIDE,
      });
      p.drawLine({
        start: { x: mm(b.x), y: y(b.y + b.xHeight) },
        end: { x: mm(b.x + b.width), y: y(b.y + b.xHeight) },
        thickness: 0.5,
        color: GUIDE,
        dashArray: [2, 2],
      });
      const label = b.variant > 1 ? `${b.char} ${b.variant}` : b.char;
      p.drawText(label, { x: mm(b.x + 1), y: y(b.y + g.box.label - 0.8), size: 6.5, font, color: LABEL });
    }
  }
  return doc.save({ useObjectStreams: false });
}
