// PNG writer. A sheet that lies flat, with no image on it, is painted into pixels by the engine
// itself (paint.ts); anything else is an SVG of the page rasterised by resvg at the requested DPI,
// system fonts off (loading them costs ~50 ms a render and the SVG has outlines only), its
// outlines written out per instance rather than by reference. Either way: outlines reduced to the
// detail the resolution can show (simplify.ts); paper grain blended into the pixels instead of
// painted as a pattern when the sheet lies flat (grain.ts); the ink on paper worked in the pixels
// (soften.ts); the pixels encoded by png-encode.ts with the caller's deflate and CRC (filter 0). resvg is
// native code and comes in as an argument (workers/resvg.ts), so that the engine stays pure and
// loads nothing native.
import { type DisplayList, type DisplayPage, KEPT_DRAWINGS } from '../display-list.ts';
import { blendGrain } from './grain.ts';
import { encodePng, encodeRows, type PngEncoding, paperRows } from './png-encode.ts';
import { simplifyOutline } from './simplify.ts';
import { hexRgb, letterInk } from '../color.ts';
import { paintable, paintPage } from './paint.ts';
import { bleedInk, inkOnPaper, scan } from './soften.ts';
import { type AssetBytes, type InlineOutlines, pageToSvg } from './svg.ts';

/** How far (in image pixels) a reduced outline may stray from the font's: invisible after anti-aliasing. */
export const OUTLINE_TOLERANCE_PX = 0.2;

/**
 * Draws an SVG at `width` pixels (its height follows), system fonts off; `background` fills what
 * the drawing leaves bare. RGBA pixels, premultiplied as resvg gives them.
 */
export type Rasterizer = (
  svg: string,
  opts: { width: number; background?: string },
) => { width: number; height: number; pixels: Uint8Array };

/** The rasteriser, the encoder's deflate and CRC (PngEncoding), the page's images. */
export interface PngOptions extends PngEncoding {
  raster: Rasterizer;
  assets?: AssetBytes;
}

export function pageToPng(list: DisplayList, page: DisplayPage, dpi: number, opts: PngOptions): Uint8Array {
  const { tilt, shadow, texture, seed } = page.sheet;
  const flat = tilt === 0 && shadow === 0;
  const grain = flat ? texture : 0;
  const width = Math.round((page.width / 72) * dpi);
  const outlines = rasterOutlines(list, page, dpi / 72);
  // A flat sheet with no image on it is painted here (paint.ts); anything else, resvg draws from the SVG.
  const painted = paintable(page) ? paintPage(page, width, outlines.contours, letterInk(page)) : undefined;
  const { pixels, height } =
    painted ??
    opts.raster(
      pageToSvg(list, grain > 0 ? { ...page, sheet: { ...page.sheet, texture: 0 } } : page, {
        assets: opts.assets,
        inline: outlines,
      }),
      {
        width,
        // The sheet (or with a shadow, the desk) covers the image, except the corners a tilt uncovers.
        ...(tilt !== 0 && shadow === 0 ? { background: page.background } : {}),
      },
    );
  // The ink gathers where it was laid thick and soaks in before the grain lies over it; the
  // scanner sees both.
  const paper = hexRgb(page.background);
  if (flat && !page.items.some((i) => i.kind === 'image')) {
    const inked = inkOnPaper(
      pixels,
      width,
      height,
      paper,
      {
        pool: page.sheet.pool,
        dry: page.sheet.dry,
        bleed: page.sheet.bleed,
        dpi,
        seed,
        full: inkDarkness(page),
      },
      painted?.drawn,
    );
    // A page painted here is the paper but where the ink went: its rows are written from a row of
    // paper, the grain blended into them as they go to the encoder.
    if (painted && inked) {
      const raw = paperRows(width, height, pixels, paper, inked);
      const rgb = { offset: 1, stride: 3 * width + 1, bpp: 3 };
      if (grain > 0) blendGrain(raw, width, height, width / page.width, seed, grain, rgb);
      return encodeRows(width, height, raw, true, opts);
    }
  } else bleedInk(pixels, width, height, dpi, page.sheet.bleed);
  if (grain > 0) blendGrain(pixels, width, height, width / page.width, seed, grain);
  if (page.sheet.scanner) scan(pixels, width, height, dpi, seed);
  return encodePng(width, height, pixels, opts);
}

/**
 * How dark the writing's ink is on its paper at full strength (0-255): the median letter's colour,
 * each channel's darkening averaged. Counted by the sum of the darkenings (0-765), one count a
 * letter: no list of a thousand numbers to sort.
 */
function inkDarkness(page: DisplayPage): number {
  const [pr, pg, pb] = hexRgb(page.background);
  const counts = new Uint32Array(766);
  let n = 0;
  let color = '';
  let sum = 0;
  for (const it of page.items) {
    if (it.kind !== 'glyph') continue;
    if (it.color !== color) {
      color = it.color;
      const [r, g, b] = hexRgb(color);
      sum = Math.max(0, pr - r) + Math.max(0, pg - g) + Math.max(0, pb - b);
    }
    counts[sum]!++;
    n++;
  }
  if (n === 0) return 255;
  for (let s = 0, seen = 0; ; s++) {
    seen += counts[s]!;
    if (seen > n >> 1) return s / 3;
  }
}

const reduced = new Map<string, Map<number, Int32Array[]>>();

/** The page's glyph outlines at the detail `pxPerPt` can show, each reduced once per thread and size. */
export function rasterOutlines(list: DisplayList, page: DisplayPage, pxPerPt: number): InlineOutlines {
  const largest = new Map<string, number>(); // pt per font unit of each outline's largest instance
  for (const it of page.items) {
    if (it.kind !== 'glyph') continue;
    const scale = Math.sqrt(Math.abs(it.m[0] * it.m[3] - it.m[1] * it.m[2]));
    if (scale > (largest.get(it.ref) ?? 0)) largest.set(it.ref, scale);
  }
  const contours = new Map<string, Int32Array[]>();
  for (const [ref, scale] of largest) {
    const path = list.glyphs[ref]!.path;
    // Tolerance in font units, rounded down to a quarter octave so that nearby sizes share one outline.
    const step = Math.floor(Math.log2(OUTLINE_TOLERANCE_PX / (scale * pxPerPt)) * 4) / 4;
    let sizes = reduced.get(path);
    if (!sizes) {
      if (reduced.size >= KEPT_DRAWINGS) reduced.clear();
      sizes = new Map();
      reduced.set(path, sizes);
    }
    let outline = sizes.get(step);
    if (outline === undefined) {
      outline = simplifyOutline(path, 2 ** step);
      sizes.set(step, outline);
    }
    contours.set(ref, outline);
  }
  // Placed on a grid of 1/8 image pixel: rounding moves no point more than 1/16 of a pixel.
  return { unitsPerPt: 8 * pxPerPt, contours: (ref) => contours.get(ref)! };
}
