// What paper and a scanner do to an image of a page, in its pixels: ink soaking a little into
// the paper (its edges soften, as a vector outline's never do), and a flatbed scan's slight blur
// and sensor noise. Done on the raster (a blur filter in the SVG costs resvg several times as
// much); pure, the noise seeded by the sheet.
import { Random } from '../prng.ts';

/** Pixel size the effects are tuned for: at other resolutions they keep their size on the page. */
const BASE_DPI = 144;

/**
 * Blurs opaque RGBA pixels in place with the 3-tap kernel [w, 1 - 2w, w] (w ≤ 0.25), across and
 * then down, `passes` times, with integer weights out of 256. Two channels at a time in one
 * 32-bit word (red and blue, green and alpha: each sum stays under 2^16 in its half), and both
 * passes run along the rows, in memory order; a pixel with its neighbours' colour is left as it is.
 */
function blur(rgba: Uint8Array, width: number, height: number, w: number, passes: number): void {
  const side = Math.round(w * 256);
  if (side <= 0) return;
  const mid = 256 - 2 * side;
  const aligned = rgba.byteOffset % 4 === 0;
  const px = aligned
    ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
    : new Uint32Array(rgba.slice().buffer, 0, width * height);
  const M = 0x00ff00ff;
  const mix = (a: number, c: number, b: number) =>
    ((((side * ((a & M) + (b & M)) + mid * (c & M) + 0x00800080) >>> 8) & M) |
      ((side * (((a >>> 8) & M) + ((b >>> 8) & M)) + mid * ((c >>> 8) & M) + 0x00800080) & ~M)) >>>
    0;
  let above = new Uint32Array(width);
  let here = new Uint32Array(width);
  for (let pass = 0; pass < passes; pass++) {
    for (let y = 0; y < height; y++) {
      const end = (y + 1) * width;
      let prev = px[y * width]!;
      for (let i = y * width; i < end; i++) {
        const cur = px[i]!;
        const next = i + 1 < end ? px[i + 1]! : cur;
        if (prev !== cur || next !== cur) px[i] = mix(prev, cur, next);
        prev = cur;
      }
    }
    above.set(px.subarray(0, width));
    for (let y = 0; y < height; y++) {
      const row = y * width;
      here.set(px.subarray(row, row + width));
      const below = y + 1 < height ? row + width : row;
      for (let x = 0; x < width; x++) {
        const a = above[x]!;
        const c = here[x]!;
        const b = px[below + x]!;
        if (a !== c || b !== c) px[row + x] = mix(a, c, b);
      }
      const swap = above;
      above = here;
      here = swap;
    }
  }
  if (!aligned) rgba.set(new Uint8Array(px.buffer, 0, rgba.length));
}

/** Ink soaking into the paper (`amount` 0-1): every edge a little soft, as written ink is. */
export function bleedInk(rgba: Uint8Array, width: number, height: number, dpi: number, amount: number): void {
  if (amount <= 0) return;
  const passes = Math.max(1, Math.round(dpi / BASE_DPI));
  const w = (0.1 + 0.15 * amount) * Math.min(1, dpi / BASE_DPI);
  blur(rgba, width, height, w, passes);
}

/** A flatbed scan: a slight blur over everything, then faint grey sensor noise (the same seed, the same noise). */
export function scan(rgba: Uint8Array, width: number, height: number, dpi: number, seed: number): void {
  blur(rgba, width, height, 0.25 * Math.min(1, dpi / BASE_DPI), Math.max(1, Math.round(dpi / BASE_DPI)));
  // Noise in runs of two pixels (a scanner's noise is not finer than its optics), ±6 levels.
  const r = new Random(seed, 'scanner');
  const n = width * height;
  for (let p = 0; p < n; p += 2) {
    const d = Math.round(12 * r.next()) - 6;
    for (let q = p; q < Math.min(n, p + 2); q++) {
      const i = q * 4;
      rgba[i] = clamp(rgba[i]! + d);
      rgba[i + 1] = clamp(rgba[i + 1]! + d);
      rgba[i + 2] = clamp(rgba[i + 2]! + d);
    }
  }
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
