// A preview: the laid-out pages with PREVIEW written across them, as PNGs; and the image bytes
// of the resources, as every writer takes them.
import type { DisplayList } from '../display-list.ts';
import { addWatermark } from '../page/watermark.ts';
import type { Resources } from '../spec.ts';
import type { FontSource } from '../text/fonts.ts';
import { type PngOptions, pageToPng } from './png.ts';
import type { AssetBytes } from './svg.ts';

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
