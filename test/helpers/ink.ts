// Reading a rendered page's ink: which pixels are ink, and its connected pieces (8-connected),
// each with its area, its middle height and its extent across; a line of words drawn in two
// colours, each word's pixels apart; the counters (holes) of a letter's ink; each letter's ink box
// as the display list places it.
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { type DisplayList, type DisplayPage, layout, resourcesOf, writeSvg } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { EFFECTS_OFF, textSpec } from './specs.ts';

export interface InkPiece {
  area: number;
  /** Mean row, and the leftmost and rightmost columns. */
  y: number;
  x0: number;
  x1: number;
}

export interface Ink {
  width: number;
  height: number;
  /** 1 where a pixel is darker than `threshold` (the mean of its channels, 0-255). */
  mask: Uint8Array;
  /** The darkest pixel's mean channel. */
  darkest: number;
}

export function inkOf(png: Uint8Array, threshold: number): Ink {
  const { width, height, data } = PNG.sync.read(Buffer.from(png));
  const mask = new Uint8Array(width * height);
  let darkest = 255;
  for (let i = 0; i < mask.length; i++) {
    const v = (data[4 * i]! + data[4 * i + 1]! + data[4 * i + 2]!) / 3;
    if (v < threshold) mask[i] = 1;
    if (v < darkest) darkest = v;
  }
  return { width, height, mask, darkest };
}

export function inkPieces(ink: Ink): InkPiece[] {
  const { width: w, height: h, mask } = ink;
  const seen = new Uint8Array(w * h);
  const pieces: InkPiece[] = [];
  const stack: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (!mask[i] || seen[i]) continue;
    seen[i] = 1;
    stack.push(i);
    const piece = { area: 0, y: 0, x0: w, x1: 0 };
    while (stack.length) {
      const p = stack.pop()!;
      const [x, y] = [p % w, Math.floor(p / w)];
      piece.area++;
      piece.y += y;
      piece.x0 = Math.min(piece.x0, x);
      piece.x1 = Math.max(piece.x1, x);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [u, v] = [x + dx, y + dy];
          if (u < 0 || v < 0 || u >= w || v >= h) continue;
          const q = v * w + u;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
    }
    piece.y /= piece.area;
    pieces.push(piece);
  }
  return pieces;
}

/** Pieces in lines of text: sorted by height, a new line wherever the next piece is more than `gap` pixels lower. */
export function inLines(pieces: InkPiece[], gap: number): InkPiece[][] {
  const lines: InkPiece[][] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const p of pieces.slice().sort((a, b) => a.y - b.y)) {
    if (p.y - last > gap) lines.push([]);
    lines.at(-1)!.push(p);
    last = p.y;
  }
  return lines;
}

/** Pixels of red and of blue ink on an RGBA image, as [x, y]. */
function coloured(rgba: Uint8Array, w: number): { red: [number, number][]; blue: [number, number][] } {
  const red: [number, number][] = [];
  const blue: [number, number][] = [];
  for (let i = 0, o = 0; o < rgba.length; i++, o += 4) {
    const r = rgba[o]!;
    const g = rgba[o + 1]!;
    const b = rgba[o + 2]!;
    if (r - (g > b ? g : b) > 127) red.push([i % w, (i / w) | 0]);
    else if (b - (r > g ? r : g) > 127) blue.push([i % w, (i / w) | 0]);
  }
  return { red, blue };
}

export interface WordsInk {
  /** Lines the text took. */
  lines: number;
  /** Each word's ink pixels, [x, y], in the order written. */
  words: [number, number][][];
  /** The hand's x-height in pixels. */
  xHeight: number;
}

/** `text` written in the bundled hand `slug` at `size` pt on a strip 400 mm long, paper off. */
function onStrip(
  slug: string,
  size: number,
  modifiers: Record<string, unknown>,
  text: string,
  style: Record<string, unknown> = {},
): DisplayList {
  const spec = textSpec(
    {
      ...style,
      fontId: bundledFontId(slug),
      fontSize: size,
      pageSize: { name: 'strip', width: 400, height: 60, unit: 'mm' },
      margins: { top: 10, right: 10, bottom: 5, left: 10 },
      modifiers: { ...modifiers, paper: { enabled: false } },
    },
    text,
  );
  return layout(spec, { fonts: fontBytes(resourcesOf(spec).fonts), images: {} });
}

/** The hand's x-height at `size` (pt): how high the tallest of its x, v, w and z reaches, typeset. */
function xHeightPt(slug: string, size: number): number {
  const list = onStrip(slug, size, EFFECTS_OFF, 'x v w z');
  return Math.max(
    ...Object.values(list.glyphs).map((def) => {
      const ys = [...def.path.matchAll(/-?[\d.]+/g)].map((m) => Number(m[0])).filter((_, i) => i % 2);
      return Math.max(...ys) * def.scale;
    }),
  );
}

/**
 * `text` written in the bundled hand `slug` at `size` pt on a 400 mm strip (paper off), its
 * words drawn red and blue in turn, rasterised at `dpi`. A word's pixels are those of its colour
 * from where it starts to where the next word of its colour starts (each less half an em: a
 * letter may reach that far left of its pen position).
 */
export function wordsInk(
  slug: string,
  modifiers: Record<string, unknown>,
  text: string,
  seed: number,
  size: number,
  dpi: number,
  style: Record<string, unknown> = {},
): WordsInk {
  const px = dpi / 72;
  const list = onStrip(slug, size, { ...modifiers, seed }, text, style);
  const page = list.pages[0]!;
  const xHeight = xHeightPt(slug, size) * px;
  const glyphs = page.items.filter((i) => i.kind === 'glyph');
  const words = [...new Set(glyphs.map((g) => g.word!))].sort((a, b) => a - b);
  const start = words.map((w) => Math.min(...glyphs.filter((g) => g.word === w).map((g) => g.m[4] * px)));
  const drawn: DisplayPage = {
    ...page,
    background: '#ffffff',
    items: glyphs.map((g) => ({
      ...g,
      color: words.indexOf(g.word!) % 2 ? '#0000ff' : '#ff0000',
      opacity: 1,
    })),
  };
  // The SVG is sized in pt, which resvg takes at 96 px to the inch.
  const image = new Resvg(writeSvg(list, drawn), { fitTo: { mode: 'zoom', value: dpi / 96 } }).render();
  const ink = coloured(image.pixels, image.width);
  // Word k's ink: its colour's pixels from a little before its first letter to a little before the
  // next word of its colour. A colour's words take turns, so each of its pixels is one word's.
  const before = 0.5 * size * px;
  const inked = words.map((): [number, number][] => []);
  for (const parity of [0, 1]) {
    const own = words.map((_, k) => k).filter((k) => k % 2 === parity);
    for (const p of parity ? ink.blue : ink.red) {
      let lo = 0;
      let hi = own.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (start[own[mid]!]! - before <= p[0]) lo = mid + 1;
        else hi = mid;
      }
      if (lo > 0) inked[own[lo - 1]!]!.push(p);
    }
  }
  return { lines: page.lines.length, xHeight, words: inked };
}

/**
 * The area (px) of a letter's counters: the blank pixels from which ink is seen in each of the
 * eight directions (across and down the image and along both diagonals). The inside of an o, an
 * e or a bowl left a hair open counts; the mouth of a c or a u does not.
 */
export function counterArea(pixels: readonly [number, number][]): number {
  if (!pixels.length) return 0;
  const x0 = Math.min(...pixels.map((p) => p[0]));
  const y0 = Math.min(...pixels.map((p) => p[1]));
  const w = Math.max(...pixels.map((p) => p[0])) - x0 + 1;
  const h = Math.max(...pixels.map((p) => p[1])) - y0 + 1;
  const ink = new Uint8Array(w * h);
  for (const [x, y] of pixels) ink[(y - y0) * w + (x - x0)] = 1;
  // seen[d][i]: ink lies in direction d from pixel i (filled along d's opposite, one pass each).
  const steps: [number, number][] = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [-1, -1],
    [1, -1],
    [-1, 1],
  ];
  const sees = new Uint8Array(w * h);
  for (const [dx, dy] of steps) {
    const seen = new Uint8Array(w * h);
    // Visit pixels so that the neighbour in direction (dx, dy) comes first.
    const xs = dx > 0 ? [w - 1, -1, -1] : [0, w, 1];
    const ys = dy > 0 ? [h - 1, -1, -1] : [0, h, 1];
    for (let y = ys[0]!; y !== ys[1]; y += ys[2]!)
      for (let x = xs[0]!; x !== xs[1]; x += xs[2]!) {
        const [u, v] = [x + dx, y + dy];
        if (u < 0 || v < 0 || u >= w || v >= h) continue;
        const q = v * w + u;
        seen[y * w + x] = ink[q] || seen[q] ? 1 : 0;
      }
    for (let i = 0; i < w * h; i++) sees[i] = sees[i]! + seen[i]!;
  }
  let area = 0;
  for (let i = 0; i < w * h; i++) if (!ink[i] && sees[i] === steps.length) area++;
  return area;
}

const boxes = new Map<string, [number, number, number, number]>();
/** A drawing's box in font units (y up), from its path data. */
function drawingBox(list: DisplayList, ref: string): [number, number, number, number] {
  const path = list.glyphs[ref]!.path;
  let box = boxes.get(path);
  if (!box) {
    // The ink's box, not the control points' (a curve's lie outside it): each curve at 16 points.
    const xs: number[] = [];
    const ys: number[] = [];
    let [x, y] = [0, 0];
    for (const [, cmd, body] of path.matchAll(/([MLQCZ])([^MLQCZ]*)/g)) {
      const v = body!.trim()
        ? body!
            .trim()
            .split(/[\s,]+/)
            .map(Number)
        : [];
      // A quadratic as the cubic through the same points.
      const third = (a: number, b: number) => a + (2 / 3) * (b - a);
      const pts =
        cmd === 'Q'
          ? [x, y, third(x, v[0]!), third(y, v[1]!), third(v[2]!, v[0]!), third(v[3]!, v[1]!), v[2]!, v[3]!]
          : [x, y, ...v];
      if (cmd === 'Q' || cmd === 'C') {
        for (let k = 1; k <= 16; k++) {
          const [t, u] = [k / 16, 1 - k / 16];
          const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
          xs.push(w.reduce((sum, c, i) => sum + c * pts[2 * i]!, 0));
          ys.push(w.reduce((sum, c, i) => sum + c * pts[2 * i + 1]!, 0));
        }
      }
      if (v.length >= 2) {
        [x, y] = [v.at(-2)!, v.at(-1)!];
        xs.push(x);
        ys.push(y);
      }
    }
    box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    boxes.set(path, box);
  }
  return box;
}

export interface LetterBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The page's text line the letter belongs to (nearest baseline). */
  line: number;
}

/** The ink box of every letter on a page, in writing order, on the page (pt, y down): its drawing's box carried by its matrix, with the line it is on. */
export function letterBoxes(list: DisplayList, page: DisplayPage): LetterBox[] {
  const out: LetterBox[] = [];
  for (const it of page.items) {
    if (it.kind !== 'glyph') continue;
    const [x0, y0, x1, y1] = drawingBox(list, it.ref);
    const [a, b, c, d, e, f] = it.m;
    const xs = [x0, x1].flatMap((x) => [y0, y1].map((y) => a * x + c * y + e));
    const ys = [x0, x1].flatMap((x) => [y0, y1].map((y) => b * x + d * y + f));
    let line = 0;
    page.lines.forEach((l, i) => {
      if (Math.abs(l.y - f) < Math.abs(page.lines[line]!.y - f)) line = i;
    });
    out.push({
      left: Math.min(...xs),
      right: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
      line,
    });
  }
  return out;
}
