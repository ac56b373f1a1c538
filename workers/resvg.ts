// The PNG writer's one native step, passed into the engine: resvg draws the page's SVG, system
// fonts off (loading them costs ~50 ms a render and the SVG has outlines only). A process that
// renders on its main thread imports workers/image-allocator.ts before this module.
import { Resvg } from '@resvg/resvg-js';
import type { Rasterizer } from '../src/render/index.ts';
import { noteNativeImage } from './native-memory.ts';

export const resvgRasterizer: Rasterizer = (svg, { width, background }) => {
  const image = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false },
    ...(background ? { background } : {}),
  }).render();
  noteNativeImage();
  return { width: image.width, height: image.height, pixels: image.pixels };
};
