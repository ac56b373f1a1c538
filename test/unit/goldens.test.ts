// Golden render cases through the engine's door alone: each stored render specification
// (test/goldens/specs.json, mapped from the cases by test/golden-specs.test.ts) and the bytes it
// names → an exact display-list snapshot and a page PNG compared with a stated tolerance. Goldens
// are written only by `npm run goldens:update`; a missing golden fails the run (CI never creates
// one silently).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import {
  assetBytes,
  type AssetBytes,
  type DisplayList,
  layout,
  type Rasterizer,
  writePng,
} from '../../src/render/index.ts';
import { readGoldenSpecs } from '../helpers/golden-specs.ts';

const UPDATE = process.env.GOLDENS_UPDATE === '1';
const DIR = new URL('../goldens/expected/', import.meta.url);
/** A pixel differs when a channel moves by more than 24 of 255; at most 0.2 % may differ. */
const CHANNEL_TOLERANCE = 24;
const PIXEL_SHARE = 0.002;

/** resvg as the service runs it: system fonts off. */
const raster: Rasterizer = (svg, { width, background }) => {
  const image = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false },
    ...(background ? { background } : {}),
  }).render();
  return { width: image.width, height: image.height, pixels: image.pixels };
};

const { specs, resources } = readGoldenSpecs();
const slugOf = new Map(Object.entries(specs.fonts).map(([id, font]) => [id, font.slug]));
/** The display list with numbers to 4 decimals and outlines as hashes: stable, and readable in a diff. */
function snapshot(list: DisplayList, page: number): string {
  const p = list.pages[page]!;
  const round = (v: unknown): unknown =>
    typeof v === 'number'
      ? Math.round(v * 10_000) / 10_000
      : Array.isArray(v)
        ? v.map(round)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)]))
          : v;
  const used = new Set(p.items.flatMap((i) => (i.kind === 'glyph' ? [i.ref] : [])));
  const glyphs = Object.fromEntries(
    [...used].sort().map((ref) => {
      const g = list.glyphs[ref]!;
      return [
        ref,
        {
          font: slugOf.get(g.font),
          gid: g.gid,
          variant: g.variant,
          path: createHash('sha256').update(g.path).digest('hex').slice(0, 16),
        },
      ];
    }),
  );
  return `${JSON.stringify({ pages: list.pages.length, page: round({ ...p }), glyphs }, null, 1)}\n`;
}

function differingShare(a: PNG, b: PNG): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differ = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      if (Math.abs(a.data[i + c]! - b.data[i + c]!) > CHANNEL_TOLERANCE) {
        differ++;
        break;
      }
    }
  }
  return differ / (a.width * a.height);
}

/** Compares (or with GOLDENS_UPDATE=1, writes) a page's display list and image. */
function compare(t: Test, name: string, list: DisplayList, page: number, assets?: AssetBytes): void {
  const snap = snapshot(list, page);
  const png = writePng(list, list.pages[page]!, 72, {
    raster,
    deflate: (b) => deflateSync(b, { level: 9 }),
    assets,
  });
  const snapFile = new URL(`${name}.json`, DIR);
  const pngFile = new URL(`${name}.png`, DIR);
  if (UPDATE) {
    writeFileSync(snapFile, snap);
    writeFileSync(pngFile, png);
    t.pass(`wrote ${name}`);
    return;
  }
  if (!existsSync(snapFile) || !existsSync(pngFile)) {
    t.fail(`no golden for ${name}: run npm run goldens:update and look at the PNG before committing it`);
    return;
  }
  t.equal(snap, readFileSync(snapFile, 'utf8'), 'display list as recorded');
  const share = differingShare(PNG.sync.read(Buffer.from(png)), PNG.sync.read(readFileSync(pngFile)));
  t.ok(
    share <= PIXEL_SHARE,
    `page image within tolerance (${(share * 100).toFixed(3)} % of pixels differ, at most ${PIXEL_SHARE * 100} %)`,
  );
}

t.ok(specs.cases.length >= 20, `${specs.cases.length} cases`);
if (UPDATE) mkdirSync(DIR, { recursive: true });
const assets = assetBytes(resources);

for (const c of specs.cases) {
  t.test(c.name, async (t) => {
    compare(t, c.name, layout(c.spec, resources, { maxPages: 200 }), c.page - 1, assets);
  });
}
