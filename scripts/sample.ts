// Renders a text in a template style to a PNG, for looking at the hand close up:
//   node --import tsx scripts/sample.ts OUT.png [--style JSON] [--dpi 200] [--font caveat]
//        [--text "…"] [--crop HEIGHT_MM]
// The style is a partial template style (every default filled); --crop keeps the top of the page.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { bundledFontId } from '../src/domain/fonts.ts';
import { layout, resourcesOf, writePng } from '../src/render/index.ts';
import { textSpec } from '../test/helpers/specs.ts';
import { fontBytes } from '../workers/fonts.ts';
import { resvgRasterizer } from '../workers/resvg.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    style: { type: 'string', default: '{}' },
    dpi: { type: 'string', default: '200' },
    font: { type: 'string', default: 'caveat' },
    text: {
      type: 'string',
      default:
        'The quick brown fox jumps over the lazy dog. The garden looked wonderful, and the roses by the gate were in full bloom. The garden, the garden, the garden.',
    },
    crop: { type: 'string' },
    page: { type: 'string', default: '1' },
  },
});
const out = positionals[0] ?? 'sample.png';
const style = { fontId: bundledFontId(values.font), ...JSON.parse(values.style) };
const spec = textSpec(style, values.text.replace(/\\n/g, '\n'));
if (values.crop) {
  const s = spec.style;
  spec.style = { ...s, pageSize: { name: 'crop', width: 210, height: Number(values.crop), unit: 'mm' } };
}
const list = layout(spec, { fonts: fontBytes(resourcesOf(spec).fonts), images: {} });
const page = list.pages[Number(values.page) - 1]!;
const png = writePng(list, page, Number(values.dpi), {
  raster: resvgRasterizer,
  deflate: (b) => deflateSync(b, { level: 1 }),
});
writeFileSync(out, png);
console.log(`${out}: ${list.pages.length} page(s), ${png.length} bytes`);
