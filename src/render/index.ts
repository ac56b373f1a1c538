// The render engine's one door. A render specification and the bytes it names become a display
// list (positioned glyph outlines, rules, images per page); the writers turn a display list into
// a PDF, an SVG, a PNG, a pen plotter's SVG of strokes or a watermarked preview. Pure: no I/O, no clock, no environment; fonts,
// images, the seed, the date and the compressor come in as arguments.
import type { DisplayList } from './display-list.ts';
import { renderText } from './document.ts';
import { renderBlocks } from './flow.ts';
import type { FontSource } from './fonts.ts';
import { type PngOptions, pageToPng } from './png.ts';
import type { Block, LayoutLimits, RenderSpec, Resources } from './spec.ts';
import type { AssetBytes } from './svg.ts';
import { addWatermark } from './watermark.ts';

export type { DisplayList, DisplayPage, GlyphDef, Item, Matrix } from './display-list.ts';
export type { FontSource, PathCommand } from './fonts.ts';
export {
  buildHand,
  HAND_SIDE,
  HAND_UNITS_PER_EM,
  HAND_X_HEIGHT,
  type HandBuild,
  HandBuildError,
  type HandCharacter,
  type HandEdits,
  type HandWarning,
  type RedonePage,
  type Tracer,
} from './hand-build.ts';
export { FONT_CACHE_DEFAULT_BYTES, fontCacheState, forgetFont, setFontCacheBytes } from './fonts.ts';
export type { AssetBytes } from './svg.ts';
export type * from './spec.ts';
export { MODIFIER_LIMITS } from './spec.ts';
export { pageToSvg as writeSvg } from './svg.ts';
export { pageToStrokes as writeStrokes } from './plotter.ts';
export { type PngOptions, pageToPng as writePng, type Rasterizer } from './png.ts';
export { displayListToPdf as writePdf, type PdfOptions } from './pdf.ts';
export { type MergeOptions, MergeError, mergePdfs } from './pdf-merge.ts';
export {
  readSheetCode,
  SHEET_PAPERS,
  SHEET_SETS,
  type SheetBox,
  type SheetCode,
  type SheetLayout,
  type SheetPaper,
  type SheetSet,
  sheetCodeBits,
  sheetLayout,
  variantsOf,
  writeSheet,
} from './sheet.ts';
export {
  type GrayImage,
  readSheetScan,
  SCAN_PX_PER_MM,
  type ScannedBox,
  SheetScanError,
  type SheetScan,
} from './sheet-scan.ts';
export { RenderError, type RenderErrorCode, uncoveredCharacters } from './text-layout.ts';
export {
  type FontInfo,
  fontCoverage,
  inspectFont,
  NotAFontError,
  sampleLine,
  sampleLineOf,
} from './font-info.ts';
export { MM_PER_PX, pageDimensionsMm, pageSizePt, STANDARD_SIZES } from './page-size.ts';

/** Every font and image a specification names: what the caller must hand to layout(). */
export function resourcesOf(spec: RenderSpec): { fonts: string[]; images: string[] } {
  const fonts = new Set([
    ...spec.fonts.body,
    ...('blocks' in spec.content ? (spec.fonts.headings?.fonts ?? []) : []),
  ]);
  const images = new Set<string>();
  if (spec.style.background?.assetId) images.add(spec.style.background.assetId);
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'image') images.add(b.assetId);
      else if (b.type === 'columns') for (const c of b.columns) walk(c);
    }
  };
  if ('blocks' in spec.content) walk(spec.content.blocks);
  return { fonts: [...fonts], images: [...images] };
}

/** The document's pages: simple text, or the blocks of a structured one. */
export function layout(spec: RenderSpec, resources: Resources, limits: LayoutLimits = {}): DisplayList {
  const font = (id: string): FontSource => {
    const bytes = resources.fonts[id];
    if (!bytes) throw new Error(`the resources hold no font ${id}`);
    return { id, bytes, typeset: spec.fonts.typeset?.[id] };
  };
  const fonts = spec.fonts.body.map(font);
  if ('text' in spec.content)
    return renderText({ style: spec.style, text: spec.content.text, fonts, limits });
  const images: Record<string, { width: number; height: number }> = {};
  for (const [id, image] of Object.entries(resources.images))
    images[id] = { width: image.width, height: image.height };
  return renderBlocks({
    style: spec.style,
    blocks: spec.content.blocks,
    fonts,
    headings: spec.fonts.headings
      ? { fonts: spec.fonts.headings.fonts.map(font), overstrike: spec.fonts.headings.overstrike }
      : { fonts, overstrike: true },
    images,
    limits,
  });
}

/** The image bytes of the resources, as the writers take them. */
export function assetBytes(resources: Resources): AssetBytes {
  const out: AssetBytes = {};
  for (const [id, image] of Object.entries(resources.images))
    out[id] = { type: image.type, bytes: image.bytes };
  return out;
}

export interface PreviewPage {
  page: number;
  width: number;
  height: number;
  png: Uint8Array;
}

/** A preview: each laid-out page with PREVIEW written across it, as a PNG at `dpi`. */
export function writePreview(
  list: DisplayList,
  opts: PngOptions & { watermarkFont: FontSource; dpi: number },
): PreviewPage[] {
  addWatermark(list, opts.watermarkFont);
  return list.pages.map((page, i) => {
    const png = pageToPng(list, page, opts.dpi, opts);
    const view = new DataView(png.buffer, png.byteOffset);
    return { page: i + 1, width: view.getUint32(16), height: view.getUint32(20), png };
  });
}
