// PNG writer: the SVG of a page rasterised by resvg at the requested DPI, system fonts off
// (loading them costs ~50 ms a render and the SVG has outlines only).
import { Resvg } from '@resvg/resvg-js';
import type { DisplayList, DisplayPage } from './display-list.ts';
import { pageToSvg } from './svg.ts';

export function pageToPng(list: DisplayList, page: DisplayPage, dpi = 144): Uint8Array {
  const svg = pageToSvg(list, page);
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.round((page.width / 72) * dpi) },
    font: { loadSystemFonts: false },
    background: page.background,
  });
  // Copied out of the addon's buffer so that it can be transferred between threads.
  return new Uint8Array(resvg.render().asPng());
}
