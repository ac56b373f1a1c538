// PNG writer: the SVG of a page rasterised by resvg at the requested DPI, system fonts off
// (loading them costs ~50 ms a render and the SVG has outlines only). Given a deflate function,
// the pixels are encoded here (filter 0, the caller's zlib level): about 3x quicker than resvg's
// own encoder, which compresses harder than a preview needs.
import { Resvg } from '@resvg/resvg-js';
import type { DisplayList, DisplayPage } from './display-list.ts';
import { pageToSvg } from './svg.ts';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return crc;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, (crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0);
  return out;
}

/** An RGBA image as PNG (8-bit, no interlace, filter 0 on every row). */
export function encodePng(width: number, height: number, rgba: Uint8Array, deflate: (b: Uint8Array) => Uint8Array): Uint8Array {
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflate(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function pageToPng(list: DisplayList, page: DisplayPage, dpi = 144, opts: { deflate?: (b: Uint8Array) => Uint8Array } = {}): Uint8Array {
  const svg = pageToSvg(list, page);
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
