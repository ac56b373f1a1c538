import { deflateSync } from 'node:zlib';
import '../main/workers/image-allocator.ts';
import { bundledChain, bundledFontSource } from './test/helpers/fonts.ts';
import { renderText } from './src/render/document.ts';
import { writePng } from './src/render/index.ts';
import { resvgRasterizer as raster } from './workers/resvg.ts';
import { caption } from './bench/prose.ts';
import { styleOf } from './bench/render-doc.ts';
const fonts = bundledChain(bundledFontSource('caveat'));
const text = caption();
const st = (bleed: number) =>
  styleOf({
    pageSize: { name: 'caption', width: 800, height: 600, unit: 'px' },
    fontSize: 20,
    margins: { top: 8, right: 10, bottom: 8, left: 10 },
    modifiers: { ink: { bleed } },
  });
const deflate = (b: Uint8Array) => deflateSync(b, { level: 1 });
const t: Record<string, number[]> = { 0: [], 0.5: [] };
for (let r = 0; r < 21; r++)
  for (const b of [0, 0.5]) {
    const s = st(b);
    const t0 = performance.now();
    const list = renderText({ style: s, text, fonts });
    const png = writePng(list, list.pages[0]!, 144, { raster, deflate });
    if (r > 0) t[b]!.push(performance.now() - t0);
    if (r === 1) console.log(b, png.length);
  }
for (const [k, v] of Object.entries(t)) console.log(k, v.sort((a, b) => a - b)[10]!.toFixed(1));
