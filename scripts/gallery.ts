// The handwriting gallery: docs/handwriting.md and its pictures in docs/gallery, drawn from the
// golden specifications of the gallery's cases (test/goldens/gallery.json, pinned by the golden
// tests), so that what integrators see is what the engine writes.
//   npm run goldens:update && npm run docs:gallery
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { assetBytes, layout, writePng } from '../src/render/index.ts';
import { readGoldenSpecs } from '../test/helpers/golden-specs.ts';
import { resvgRasterizer as raster } from '../workers/resvg.ts';

const DPI = 144;
const ROOT = new URL('../', import.meta.url);
const OUT = new URL('docs/gallery/', ROOT);

interface GalleryCase {
  name: string;
  group: string;
  label: string;
  title: string;
  font?: string;
  /** Keep only this much of the page's top, in mm. */
  cropMm?: number;
  /** Lines written under the picture (what the picture alone does not say). */
  note?: string[];
}

const gallery = JSON.parse(readFileSync(new URL('test/goldens/gallery.json', ROOT), 'utf8')) as GalleryCase[];
const { specs, resources } = readGoldenSpecs();
const specOf = new Map(specs.cases.map((c) => [c.name, c]));
const assets = assetBytes(resources);

/** The top `mm` of a PNG. */
function crop(png: Uint8Array, mm: number): Uint8Array {
  const image = PNG.sync.read(Buffer.from(png));
  const rows = Math.min(image.height, Math.round((mm / 25.4) * DPI));
  const out = new PNG({ width: image.width, height: rows });
  image.data.copy(out.data, 0, 0, image.width * 4 * rows);
  return PNG.sync.write(out, { deflateLevel: 9 });
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const file = (c: GalleryCase) => `${c.name.replace(/^gallery-/, '')}.png`;
for (const c of gallery) {
  const golden = specOf.get(c.name);
  if (!golden) throw new Error(`${c.name} has no golden specification: run npm run goldens:update`);
  const list = layout(golden.spec, resources, { maxPages: 200 });
  let png = writePng(list, list.pages[golden.page - 1]!, DPI, {
    raster,
    deflate: (b) => deflateSync(b, { level: 9 }),
    assets,
  });
  if (c.cropMm) png = crop(png, c.cropMm);
  writeFileSync(new URL(file(c), OUT), png);
}

const groups = [...new Set(gallery.map((c) => c.group))];
const md: string[] = [
  '# Handwriting',
  '',
  'What each setting of `style.modifiers` does, and each bundled hand, as the engine writes them',
  '(PNG at 144 DPI). Every picture is a golden case (test/goldens/gallery.json) drawn by',
  '`npm run docs:gallery`; the ranges and defaults are in',
  '[templates.md](templates.md). "Off" switches the effect off, "default" is a template that',
  'does not set it, "strong" is the top of its range. Every other setting stays at its default.',
  '',
];
for (const group of groups) {
  const cases = gallery.filter((c) => c.group === group);
  md.push(`## ${cases[0]!.title}`, '');
  if (group === 'hands') {
    for (const c of cases)
      md.push(
        `**${c.label}**`,
        '',
        `![${c.label}](gallery/${file(c)})`,
        '',
        ...(c.note ? [...c.note, ''] : []),
      );
    continue;
  }
  for (const c of cases) md.push(`**${c.label}**`, '', `![${group}, ${c.label}](gallery/${file(c)})`, '');
}
// What follows the pictures is written by hand (how the pen writes), and kept as it is.
const KEPT = '<!-- Written by hand from here on: npm run docs:gallery keeps it. -->';
const before = readFileSync(new URL('docs/handwriting.md', ROOT), 'utf8');
const kept = before.includes(KEPT) ? `\n${KEPT}${before.split(KEPT)[1]!.trimEnd()}\n` : '';
writeFileSync(new URL('docs/handwriting.md', ROOT), `${md.join('\n').trimEnd()}\n${kept}`);
console.log(`docs/handwriting.md: ${gallery.length} pictures in docs/gallery`);
