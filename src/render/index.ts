// The render engine's one door. A render specification and the bytes it names become a display
// list (positioned glyph outlines, rules, images per page); the writers turn a display list into
// a PDF, an SVG, a PNG, a pen plotter's SVG of strokes or a watermarked preview. Pure: no I/O, no clock, no environment; fonts,
// images, the seed, the date and the compressor come in as arguments.
//
// The door only names what the stages export (a constant read here bundles alone in the built
// release); what each does is in its stage's files.
export type { DisplayList, DisplayPage, GlyphDef, Item, Matrix, PageSink } from './display-list.ts';
export type { PathCommand, PenStroke } from './geometry.ts';
export type { FontSource } from './text/fonts.ts';
// What the foundry (src/foundry) builds a hand with: a drawing's strokes, and where a font keeps them.
export { centrelines, strokeFit } from './text/centrelines.ts';
export { PEN_TABLE, STROKES_CARRY, type StoredStrokes, toStored } from './text/fonts.ts';
// Strokes read ahead of time: a release reads the bundled hands' when it is built (workers/strokes-ahead.ts).
export { readStrokesAhead, type StrokesAhead, strokesReadAhead } from './text/fonts.ts';
export { FONT_CACHE_DEFAULT_BYTES, fontCacheState, forgetFont, setFontCacheBytes } from './text/fonts.ts';
export type { AssetBytes } from './write/svg.ts';
export type * from './spec.ts';
export { MODIFIER_LIMITS, resourcesOf } from './spec.ts';
export { layout } from './page/layout.ts';
export { assetBytes, type PreviewPage, writePreview } from './write/preview.ts';
export { pageToSvg as writeSvg } from './write/svg.ts';
export { pageToStrokes as writeStrokes, type PenTravel, penTravel } from './write/plotter.ts';
export { type PngOptions, pageToPng as writePng, type Rasterizer } from './write/png.ts';
export { displayListToPdf as writePdf, PdfDocument, type PdfOptions } from './write/pdf.ts';
export { type MergeOptions, MergeError, mergePdfs } from './write/pdf-merge.ts';
export { uncoveredCharacters } from './text/characters.ts';
export { RenderError, type RenderErrorCode } from './text/text-layout.ts';
export type { FontInfo } from './text/font-info.ts';
/**
 * The font reader (inspectFont, fontCoverage, sampleLine, sampleLineOf, NotAFontError), loaded on
 * first use: harfbuzz's WebAssembly comes with it, and a process that reads no font never loads it.
 */
export const fontReader = () => import('./text/font-info.ts');
export { MM_PER_PX, pageDimensionsMm, pageSizePt, STANDARD_SIZES } from './page/page-size.ts';
