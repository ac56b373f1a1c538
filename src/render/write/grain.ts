// Paper grain: tiles of faint fibres, lying every which way, laid over the sheet in cells that
// each show one of the sheet's GRAIN_TILES tiles turned or flipped one of eight ways, chosen per
// cell (never the same as the cell to its left or above), so the grain does not repeat across a
// page. A sheet's seed picks its tiles from a family of GRAIN_FAMILY drawn once per thread (a
// new seed drawing tiles of its own cost a caption in a new seed about 1.4 ms of its 25).
// The SVG writer places the tiles as images; the PNG writer, when the sheet lies flat, blends the
// same cells into the pixels itself (an image fill costs resvg about 10 ms a megapixel, the blend
// under 1).
import { div255 } from '../color.ts';
import { Random } from '../prng.ts';

/** Tile side in pixels, and in points on the page: at 144 DPI one tile pixel is one image pixel. */
export const GRAIN_PX = 192;
export const GRAIN_PT = 96;
export const GRAIN_RGB = [96, 80, 60] as const;
/** Different tiles on a sheet; with eight turns each, 32 ways a cell can look. */
export const GRAIN_TILES = 4;
/** The tiles a sheet's are chosen from: 1,820 sets of four. */
export const GRAIN_FAMILY = 16;

/**
 * A tile: each pixel's alpha (0-255), row by row, and its inked pixels, each once, as x, y, alpha:
 * by their rows, and by their columns (a cell turned a quarter runs a tile's columns down the
 * page). So the grain is blended row by row of the image, in memory order: about a tenth quicker
 * than fibre by fibre, as they were drawn.
 */
interface Tile {
  alpha: Uint8Array;
  rows: Ordered;
  columns: Ordered;
}

/** Inked pixels (x, y, alpha) ordered by one coordinate: those at v are `list[3 · at[v]…3 · at[v + 1]]`. */
interface Ordered {
  list: Int32Array;
  at: Int32Array;
}
const tiles = new Map<string, Tile>();
/** The family's own seed: the same tiles on every thread and in every release. */
const GRAIN_SEED = 0x6a7a1e;

/** Alpha (0-255) of each pixel of the family's tile `tile` (grainTiles), row by row, at `strength`. */
export function grainAlpha(tile: number, strength: number): Uint8Array {
  return tileOf(strength, tile).alpha;
}

/** Which tiles of the family (0 to GRAIN_FAMILY - 1) a sheet's seed lays, GRAIN_TILES different ones. */
export function grainTiles(seed: number): readonly number[] {
  const r = new Random(seed, 'grain/tiles');
  const family = Array.from({ length: GRAIN_FAMILY }, (_, i) => i);
  for (let i = 0; i < GRAIN_TILES; i++) {
    const j = i + r.int(GRAIN_FAMILY - i);
    [family[i], family[j]] = [family[j]!, family[i]!];
  }
  return family.slice(0, GRAIN_TILES);
}

// Where the fibres of the tile being drawn inked (pixel indices, as they were drawn), and which
// pixels have been listed (the tile's stamp): kept by the thread.
let drawnAt = new Int32Array(0);
const listed = new Uint32Array(GRAIN_PX * GRAIN_PX);
let stamp = 0;

/** Tile `which` of the family at `strength`: drawn once per thread. */
function tileOf(strength: number, which: number): Tile {
  const key = `${strength}/${which}`;
  let tile = tiles.get(key);
  if (tile) return tile;
  const r = new Random(GRAIN_SEED, `grain/${which}`);
  const alpha = new Uint8Array(GRAIN_PX * GRAIN_PX);
  // Short fibres in every direction over about a tenth of the surface, all faint (a strong one
  // would show the tile repeating), on a tile of 34 mm so the repeat is hard to see. A fibre is
  // a run of 3 to 8 pixels at a random angle, wrapping at the edges so that the tile repeats
  // seamlessly; runs of one shade also keep the encoder quick (per-pixel noise doubles a PNG's
  // deflate time).
  // One fibre in each cell of 8 x 8 px, anywhere in it: the density is even, so no cluster of
  // fibres marks the tile's repeat.
  const cells = GRAIN_PX / 8;
  let drawn = 0;
  if (drawnAt.length < cells * cells * 8) drawnAt = new Int32Array(cells * cells * 8); // 8 pixels a fibre at most
  for (let f = 0; f < cells * cells; f++) {
    const x0 = ((f % cells) + r.next()) * 8;
    const y0 = (((f / cells) | 0) + r.next()) * 8;
    const angle = r.next() * Math.PI;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    const length = 3 + r.int(6);
    const a = Math.round((0.2 + 0.8 * r.next()) * 44 * strength);
    for (let k = 0; k < length; k++) {
      const x = (Math.floor(x0 + dx * k) + GRAIN_PX) % GRAIN_PX;
      const y = (Math.floor(y0 + dy * k) + GRAIN_PX) % GRAIN_PX;
      alpha[y * GRAIN_PX + x] = a;
      drawnAt[drawn++] = y * GRAIN_PX + x;
    }
  }
  // The inked pixels from where the fibres went, each once (a fibre drawn over another leaves its
  // own alpha): a page of a new seed lists these four times, not a tile's every pixel.
  stamp++;
  let k = 0;
  const list = new Int32Array(3 * drawn);
  for (let j = 0; j < drawn; j++) {
    const i = drawnAt[j]!;
    if (listed[i] === stamp || alpha[i] === 0) continue;
    listed[i] = stamp;
    list[k++] = i % GRAIN_PX;
    list[k++] = (i / GRAIN_PX) | 0;
    list[k++] = alpha[i]!;
  }
  tile = { alpha, rows: ordered(list, k, 1), columns: ordered(list, k, 0) };
  if (tiles.size >= 8 * GRAIN_FAMILY) tiles.clear();
  tiles.set(key, tile);
  return tile;
}

/** What each cell of a page's grain shows: a tile and a turn (0-3 quarter turns, 4-7 the same flipped), row by row. */
export function grainCells(seed: number, columns: number, rows: number): { tile: number; turn: number }[] {
  const r = new Random(seed, 'grain/cells');
  const cells: { tile: number; turn: number }[] = [];
  for (let i = 0; i < columns * rows; i++) {
    const left = i % columns ? cells[i - 1] : undefined;
    const above = i >= columns ? cells[i - columns] : undefined;
    let cell: { tile: number; turn: number };
    do cell = { tile: r.int(GRAIN_TILES), turn: r.int(8) };
    while (
      (left && left.tile === cell.tile && left.turn === cell.turn) ||
      (above && above.tile === cell.tile && above.turn === cell.turn)
    );
    cells.push(cell);
  }
  return cells;
}

/** Where tile pixel (x, y) lands in a cell under `turn`. */
export function turned(x: number, y: number, turn: number): [number, number] {
  const m = GRAIN_PX - 1;
  const [fx, fy] = turn >= 4 ? [m - x, y] : [x, y];
  switch (turn % 4) {
    case 1:
      return [m - fy, fx];
    case 2:
      return [m - fx, m - fy];
    case 3:
      return [fy, m - fx];
    default:
      return [fx, fy];
  }
}

/** The first `n` numbers of `list` (x, y, alpha, …) ordered by coordinate `by` (0 x, 1 y): a counting sort. */
function ordered(list: Int32Array, n: number, by: number): Ordered {
  const at = new Int32Array(GRAIN_PX + 1);
  for (let k = by; k < n; k += 3) at[list[k]! + 1]!++;
  for (let v = 1; v <= GRAIN_PX; v++) at[v] = at[v]! + at[v - 1]!;
  const next = at.slice();
  const out = new Int32Array(n);
  for (let k = 0; k < n; k += 3) {
    const o = 3 * next[list[k + by]!]!++;
    out[o] = list[k]!;
    out[o + 1] = list[k + 1]!;
    out[o + 2] = list[k + 2]!;
  }
  return { list: out, at };
}

/**
 * Where a pixel's red, green and blue lie in an image's bytes: pixel (x, y) at
 * `offset + y · stride + bpp · x` (RGBA pixels: 0, 4 · width, 4; a PNG's filtered RGB rows: 1,
 * 3 · width + 1, 3).
 */
export interface PixelLayout {
  offset: number;
  stride: number;
  bpp: number;
}

/** Blends the grain's cells into opaque pixels of a page drawn at `pxPerPt`, the first cell at the page's origin. */
export function blendGrain(
  px: Uint8Array,
  width: number,
  height: number,
  pxPerPt: number,
  seed: number,
  strength: number,
  { offset, stride, bpp }: PixelLayout = { offset: 0, stride: 4 * width, bpp: 4 },
): void {
  const tilePerPx = GRAIN_PX / GRAIN_PT / pxPerPt;
  const columns = Math.ceil((width * tilePerPx) / GRAIN_PX);
  const rows = Math.ceil((height * tilePerPx) / GRAIN_PX);
  const cells = grainCells(seed, columns, rows);
  const family = grainTiles(seed);
  const [cr, cg, cb] = GRAIN_RGB;
  const one = Math.abs(tilePerPx - 1) < 1e-9;
  // Image pixel x shows tile pixel ⌊x · tilePerPx⌋ (counted across the cells): tile pixel u covers ⌈u / tilePerPx⌉ up to ⌈(u + 1) / tilePerPx⌉.
  const from = (u: number) => Math.ceil(u / tilePerPx - 1e-9);
  const blend = (i: number, a: number) => {
    const keep = 255 - a;
    px[i] = div255(px[i]! * keep + cr * a + 127);
    px[i + 1] = div255(px[i + 1]! * keep + cg * a + 127);
    px[i + 2] = div255(px[i + 2]! * keep + cb * a + 127);
  };
  // turned() is affine: tile pixel (x, y) lies at (x0 + xx·x + xy·y, y0 + yx·x + yy·y) of the
  // cell. (A list of each tile turned each way would be 28 arrays a new seed to allocate: slower
  // than turning each pixel as it is blended.)
  const ways = cells.map(({ tile, turn }) => {
    const [x0, y0] = turned(0, 0, turn);
    const [x1, y1] = turned(1, 0, turn);
    const [x2, y2] = turned(0, 1, turn);
    const t = tileOf(strength, family[tile]!);
    // Down the cell run the tile's rows (yx 0) or its columns, forwards or backwards.
    return {
      x0,
      y0,
      xx: x1 - x0,
      yx: y1 - y0,
      xy: x2 - x0,
      yy: y2 - y0,
      by: y1 - y0 === 0 ? t.rows : t.columns,
    };
  });
  if (one) {
    // At 144 DPI a tile pixel is an image pixel: the image's rows in order, each cell's pixels on it.
    for (let gy = 0; gy < height; gy++) {
      const row = offset + gy * stride;
      const cy = (gy / GRAIN_PX) | 0;
      const oy = cy * GRAIN_PX;
      for (let cx = 0; cx < columns; cx++) {
        const w = ways[cy * columns + cx]!;
        const ox = cx * GRAIN_PX + w.x0;
        // The tile's row or column v lies on this row: y0 + (yy or yx) · v = gy - oy.
        const v = (gy - oy - w.y0) * (w.yx + w.yy);
        const { list, at } = w.by;
        for (let k = 3 * at[v]!, end = 3 * at[v + 1]!; k < end; k += 3) {
          const gx = ox + w.xx * list[k]! + w.xy * list[k + 1]!;
          if (gx >= width) continue;
          const a = list[k + 2]!;
          const keep = 255 - a;
          const i = row + bpp * gx;
          px[i] = div255(px[i]! * keep + cr * a + 127);
          px[i + 1] = div255(px[i + 1]! * keep + cg * a + 127);
          px[i + 2] = div255(px[i + 2]! * keep + cb * a + 127);
        }
      }
    }
    return;
  }
  for (let cy = 0; cy < rows; cy++)
    for (let cx = 0; cx < columns; cx++) {
      const { x0, y0, xx, yx, xy, yy, by } = ways[cy * columns + cx]!;
      const [ox, oy] = [cx * GRAIN_PX + x0, cy * GRAIN_PX + y0];
      const f = by.list;
      for (let k = 0; k < f.length; k += 3) {
        const x = f[k]!;
        const y = f[k + 1]!;
        const gx = ox + xx * x + xy * y;
        const gy = oy + yx * x + yy * y;
        const a = f[k + 2]!;
        for (let y = from(gy); y < Math.min(height, from(gy + 1)); y++)
          for (let x = from(gx); x < Math.min(width, from(gx + 1)); x++)
            blend(offset + y * stride + bpp * x, a);
      }
    }
}
