// Reading a rendered page's ink: which pixels are ink, and its connected pieces (8-connected),
// each with its area, its middle height and its extent across.
import { PNG } from 'pngjs';

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
