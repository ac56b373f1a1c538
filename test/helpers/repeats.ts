// How alike one word written again looks: a word written once per line, each instance cut from
// the rendered page, scaled to one height and laid over the others at its best shift; the
// overlap of two instances is the IoU of their ink masks (docs/handwriting.md, "Construction").
import { type Ink, inkOf } from './ink.ts';

/** Height every instance is scaled to before two are laid over each other, px. */
export const WORD_HEIGHT = 64;
/** The farthest one instance is moved over the other to find where they overlap best, px. */
export const SHIFT = 2;

/** A word's ink mask, cropped to its ink: 1 where ink. */
interface Mask {
  width: number;
  height: number;
  bits: Uint8Array;
}

function crop(ink: Ink, x0: number, y0: number, x1: number, y1: number): Mask | null {
  let [l, t, r, b] = [x1, y1, x0 - 1, y0 - 1];
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (ink.mask[y * ink.width + x]) {
        l = Math.min(l, x);
        r = Math.max(r, x);
        t = Math.min(t, y);
        b = Math.max(b, y);
      }
  if (r < l) return null;
  const [width, height] = [r - l + 1, b - t + 1];
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) bits[y * width + x] = ink.mask[(t + y) * ink.width + l + x]!;
  return { width, height, bits };
}

/** `m` scaled to WORD_HEIGHT (its width in proportion), each new pixel ink where most of what it covers is. */
function scaled(m: Mask): Mask {
  const k = WORD_HEIGHT / m.height;
  const width = Math.max(1, Math.round(m.width * k));
  const bits = new Uint8Array(width * WORD_HEIGHT);
  for (let y = 0; y < WORD_HEIGHT; y++)
    for (let x = 0; x < width; x++) {
      // The box of source pixels this one covers, sampled on a 3 x 3 grid.
      let n = 0;
      for (let sy = 0; sy < 3; sy++)
        for (let sx = 0; sx < 3; sx++) {
          const u = Math.min(m.width - 1, Math.floor(((x + (sx + 0.5) / 3) / width) * m.width));
          const v = Math.min(m.height - 1, Math.floor(((y + (sy + 0.5) / 3) / WORD_HEIGHT) * m.height));
          n += m.bits[v * m.width + u]!;
        }
      bits[y * width + x] = n >= 5 ? 1 : 0;
    }
  return { width, height: WORD_HEIGHT, bits };
}

/** The IoU of two masks laid left and top aligned, `b` moved by (dx, dy). */
function iou(a: Mask, b: Mask, dx: number, dy: number): number {
  let [both, either] = [0, 0];
  const w = Math.max(a.width, b.width + dx) + SHIFT;
  for (let y = -SHIFT; y < WORD_HEIGHT + SHIFT; y++)
    for (let x = -SHIFT; x < w; x++) {
      const p = x >= 0 && y >= 0 && x < a.width && y < a.height ? a.bits[y * a.width + x]! : 0;
      const [u, v] = [x - dx, y - dy];
      const q = u >= 0 && v >= 0 && u < b.width && v < b.height ? b.bits[v * b.width + u]! : 0;
      both += p & q;
      either += p | q;
    }
  return either ? both / either : 0;
}

/** The best IoU of two instances over every shift within ±SHIFT px. */
export function overlap(a: Mask, b: Mask): number {
  let best = 0;
  for (let dy = -SHIFT; dy <= SHIFT; dy++)
    for (let dx = -SHIFT; dx <= SHIFT; dx++) best = Math.max(best, iou(a, b, dx, dy));
  return best;
}

/**
 * The words of each line of a page image, each cut out and scaled: `baselines` and `size` in
 * pixels; a line's band runs from `size` above its baseline to half of it below; its words are
 * split at the `words - 1` widest runs of ink-free columns.
 */
export function wordsOf(png: Uint8Array, baselines: number[], size: number, words: number): Mask[][] {
  const ink = inkOf(png, 200);
  return baselines.map((base) => {
    const [y0, y1] = [
      Math.max(0, Math.round(base - size)),
      Math.min(ink.height, Math.round(base + 0.5 * size)),
    ];
    const used = new Uint8Array(ink.width);
    for (let y = y0; y < y1; y++)
      for (let x = 0; x < ink.width; x++) used[x] ||= ink.mask[y * ink.width + x]!;
    const first = used.indexOf(1);
    const last = used.lastIndexOf(1);
    const gaps: [number, number][] = [];
    for (let x = first; x <= last; ) {
      if (used[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x <= last && !used[x]) x++;
      gaps.push([start, x]);
    }
    const cuts = gaps
      .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
      .slice(0, words - 1)
      .map(([a, b]) => Math.round((a + b) / 2))
      .sort((a, b) => a - b);
    const edges = [first, ...cuts, last + 1];
    return edges.slice(1).map((end, i) => scaled(crop(ink, edges[i]!, y0, end, y1)!));
  });
}

/** The mean overlap of every two instances of each word (`lines`: per line, its words in order). */
export function meanOverlap(lines: Mask[][]): number {
  const all: number[] = [];
  for (let w = 0; w < lines[0]!.length; w++)
    for (let i = 0; i < lines.length; i++)
      for (let j = i + 1; j < lines.length; j++) all.push(overlap(lines[i]![w]!, lines[j]![w]!));
  return all.reduce((a, b) => a + b, 0) / all.length;
}
