// Paper grain: a seeded tile of faint fibres, lying every which way, repeated over the sheet. The SVG writer paints
// it as a pattern; the PNG writer, when the sheet lies flat, blends the same tile into the pixels
// itself (a pattern fill costs resvg about 10 ms a megapixel, the blend under 1).
import { Random } from './prng.ts';

/** Tile side in pixels, and in points on the page: at 144 DPI one tile pixel is one image pixel. */
export const GRAIN_PX = 192;
export const GRAIN_PT = 96;
export const GRAIN_RGB = [96, 80, 60] as const;

const tiles = new Map<string, Uint8Array>();

/** Alpha (0-255) of each tile pixel, row by row; the same seed and strength give the same tile. */
export function grainAlpha(seed: number, strength: number): Uint8Array {
  const key = `${seed}/${strength}`;
  let tile = tiles.get(key);
  if (tile) return tile;
  const r = new Random(seed, 'grain');
  tile = new Uint8Array(GRAIN_PX * GRAIN_PX);
  // Short fibres in every direction over about a tenth of the surface, all faint (a strong one
  // would show the tile repeating), on a tile of 34 mm so the repeat is hard to see. A fibre is
  // a run of 3 to 8 pixels at a random angle, wrapping at the edges so that the tile repeats
  // seamlessly; runs of one shade also keep the encoder quick (per-pixel noise doubles a PNG's
  // deflate time).
  // One fibre in each cell of 8 x 8 px, anywhere in it: the density is even, so no cluster of
  // fibres marks the tile's repeat.
  const cells = GRAIN_PX / 8;
  for (let f = 0; f < cells * cells; f++) {
    const [x0, y0] = [((f % cells) + r.next()) * 8, (Math.floor(f / cells) + r.next()) * 8];
    const angle = r.next() * Math.PI;
    const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
    const length = 3 + r.int(6);
    const alpha = Math.round((0.2 + 0.8 * r.next()) * 44 * strength);
    for (let k = 0; k < length; k++) {
      const x = (Math.floor(x0 + dx * k) + GRAIN_PX) % GRAIN_PX;
      const y = (Math.floor(y0 + dy * k) + GRAIN_PX) % GRAIN_PX;
      tile[y * GRAIN_PX + x] = alpha;
    }
  }
  if (tiles.size > 100) tiles.clear();
  tiles.set(key, tile);
  return tile;
}

/** Blends the tile into opaque RGBA pixels of a page drawn at `pxPerPt`, tile origin at the page's. */
export function blendGrain(
  rgba: Uint8Array,
  width: number,
  height: number,
  pxPerPt: number,
  seed: number,
  strength: number,
): void {
  const tile = grainAlpha(seed, strength);
  const tilePerPx = GRAIN_PX / GRAIN_PT / pxPerPt;
  // The image columns each tile column covers, and each tile row's fibres: only those pixels change.
  const columns: number[][] = Array.from({ length: GRAIN_PX }, () => []);
  for (let x = 0; x < width; x++) columns[Math.floor(x * tilePerPx) % GRAIN_PX]!.push(x);
  const fibres: number[][] = [];
  for (let ty = 0; ty < GRAIN_PX; ty++) {
    const row: number[] = [];
    for (let tx = 0; tx < GRAIN_PX; tx++)
      for (const x of tile[ty * GRAIN_PX + tx] ? columns[tx]! : []) row.push(x, tile[ty * GRAIN_PX + tx]!);
    fibres.push(row);
  }
  const [cr, cg, cb] = GRAIN_RGB;
  for (let y = 0; y < height; y++) {
    const row = fibres[Math.floor(y * tilePerPx) % GRAIN_PX]!;
    const base = y * width * 4;
    for (let k = 0; k < row.length; k += 2) {
      const i = base + row[k]! * 4;
      const a = row[k + 1]!;
      const keep = 255 - a;
      rgba[i] = div255(rgba[i]! * keep + cr * a + 127);
      rgba[i + 1] = div255(rgba[i + 1]! * keep + cg * a + 127);
      rgba[i + 2] = div255(rgba[i + 2]! * keep + cb * a + 127);
    }
  }
}

/** ⌊x / 255⌋ for 0 ≤ x < 65536, in integers. */
const div255 = (x: number) => (x + 1 + (x >> 8)) >> 8;
