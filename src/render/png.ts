// PNG writer: the SVG of a page rasterised by resvg at the requested DPI, system fonts off
// (loading them costs ~50 ms a render and the SVG has outlines only). Given a deflate function,
// the pixels are encoded by png-encode.ts (filter 0, the caller's zlib level): about 3x quicker
// than resvg's own encoder, which compresses harder than a preview needs.
import { Resvg } from '@resvg/resvg-js';
import type { DisplayList, DisplayPage } from './display-list.ts';
import { encodePng } from './png-encode.ts';
import { type AssetBytes, pageToSvg } from './svg.ts';

export function pageToPng(
  list: DisplayList,
  page: DisplayPage,
  dpi = 144,
  opts: { deflate?: (b: Uint8Array) => Uint8Array; assets?: AssetBytes } = {},
): Uint8Array {
  const svg = pageToSvg(list, page, { assets: opts.assets });
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.round((page.width / 72) * dpi) },
    font: { loadSystemFonts: false },
    background: page.background,
  });
  const image = resvg.render();
  if (opts.deflate) return encodePng(image.width, image.height, image.pixels, opts.deflate);
  // Copied out of the addon's buffer so that it can be transferred between threads.
  return new Uint8Array(image.asPng());
}
