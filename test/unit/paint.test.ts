// The PNG writer's own rasteriser (src/render/write/paint.ts) held beside resvg drawing the same
// page from its SVG, and against coverage worked out by hand: ink where it should be, as much of
// it as the shape covers, laid once where a shape overlaps itself, holes left bare, shapes cut at
// the image's edge.
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { freeImages } from '../helpers/drawn-images.ts';
import { styleOf } from '../helpers/specs.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { hexRgb, letterInk } from '../../src/render/color.ts';
import type { DisplayList, DisplayPage, Item } from '../../src/render/display-list.ts';
import { renderText } from '../../src/render/page/document.ts';
import { paintable, paintPage } from '../../src/render/write/paint.ts';
import { blendGrain } from '../../src/render/write/grain.ts';
import { rasterOutlines } from '../../src/render/write/png.ts';
import { encodePng, encodeRows, paperRows } from '../../src/render/write/png-encode.ts';
import { inkOnPaper } from '../../src/render/write/soften.ts';
import { pageToSvg } from '../../src/render/write/svg.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';

const LETTER =
  'Dear friend, thank you for the lovely afternoon. The garden looked wonderful and the roses by the gate were in full bloom.';
const SHEET = { tilt: 0, shadow: 0, texture: 0, bleed: 0, pool: 0, dry: 0, scanner: false, seed: 1 };
/** The effects that change pixels after the drawing (ink on paper, grain) off: the drawing alone. */
const BARE = { paper: { texture: 0 }, ink: { bleed: 0, blots: 0 } };

/** Ours and resvg's pixels of a page at `dpi` (the grain left out of both). */
function both(list: DisplayList, page: DisplayPage, dpi = 144) {
  const width = Math.round((page.width / 72) * dpi);
  const outlines = rasterOutlines(list, page, dpi / 72);
  const ours = paintPage(page, width, outlines.contours, letterInk(page));
  const pixels = new Uint8Array(ours.pixels); // the painter reuses its buffer
  const theirs = raster(
    pageToSvg(list, { ...page, sheet: { ...page.sheet, texture: 0 } }, { inline: outlines }),
    {
      width,
    },
  );
  return { ours: { ...ours, pixels }, theirs };
}

/** How far apart two RGBA images are: the mean over channels, and the share of pixels off by more than 32 levels. */
function apart(a: Uint8Array, b: Uint8Array) {
  let [sum, over, most] = [0, 0, 0];
  for (let i = 0; i < a.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 3; c++) {
      const e = Math.abs(a[i + c]! - b[i + c]!);
      sum += e;
      d = Math.max(d, e);
    }
    if (d > 32) over++;
    most = Math.max(most, d);
  }
  return { mean: sum / ((a.length / 4) * 3), over: over / (a.length / 4), most };
}

/** A page of items alone, `width` x `height` pt. */
function pageOf(items: Item[], width = 100, height = 60, sheet = SHEET): DisplayPage {
  return { width, height, background: '#fffdf6', sheet, items, lines: [] };
}

t.test('letters, rules and dots as resvg draws them from the SVG of the same page', async (t) => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['a print hand, each letter its own ink', 'caveat', { fontSize: 14 }],
    ['a joined hand on lined paper', 'dancing-script', { fontSize: 16, paper: { type: 'lined' } }],
    ['a hand of loops on dotted paper', 'homemade-apple', { fontSize: 12, paper: { type: 'dotted' } }],
    ['grid paper with a margin rule', 'kalam', { fontSize: 13, paper: { type: 'grid' } }],
  ];
  for (const [what, hand, json] of cases) {
    const list = renderText({
      style: styleOf({
        fontId: bundledFontId(hand),
        pageSize: { name: 'card', width: 400, height: 300, unit: 'px' },
        ...json,
        modifiers: BARE,
      }),
      text: LETTER,
      fonts: bundledChain(bundledFontSource(hand)),
    });
    const page = list.pages[0]!;
    t.ok(paintable(page), `${what}: painted here`);
    const kinds = new Set(page.items.map((i) => i.kind));
    const { ours, theirs } = both(list, page);
    t.same([ours.width, ours.height], [theirs.width, theirs.height], `${what}: the same size`);
    const d = apart(ours.pixels, theirs.pixels);
    t.ok(d.mean < 0.6, `${what} (${[...kinds].join(', ')}): mean difference ${d.mean.toFixed(3)} of a level`);
    t.ok(d.over < 0.005, `${what}: ${(d.over * 100).toFixed(2)} % of pixels off by more than 32 levels`);
    t.ok(d.most < 128, `${what}: no pixel off by half the range (most ${d.most})`);
  }
});

t.test('a hand-drawn line (round ends and joins, its own opacity) as resvg draws it', async (t) => {
  const line: Item = {
    kind: 'stroke',
    points: [10, 10, 60, 14, 20, 40, 80, 45, 80.5, 45.2],
    width: 2.4,
    color: '#20304a',
    opacity: 0.6,
  };
  const page = pageOf([line]);
  t.ok(paintable(page));
  const { ours, theirs } = both({ pages: [page], glyphs: {} }, page);
  const d = apart(ours.pixels, theirs.pixels);
  t.ok(d.mean < 0.6, `mean difference ${d.mean.toFixed(3)}`);
  t.ok(d.over < 0.005, `${(d.over * 100).toFixed(2)} % off by more than 32 levels`);
  // Where the line turns back on itself, its ink is laid once: no darker than along a segment.
  const at = (x: number, y: number) => ours.pixels[(Math.round(y * 2) * ours.width + Math.round(x * 2)) * 4]!;
  t.equal(at(60, 14), at(35, 12), 'the turn at (60, 14) is as dark as the middle of a segment');
  const paper = hexRgb(page.background)[0];
  const ink = hexRgb('#20304a')[0];
  t.ok(
    Math.abs(at(35, 12) - Math.round(paper + (ink - paper) * 0.6)) <= 1,
    'inside the line: the ink at its opacity over the paper',
  );
});

/** A square contour in font units, wound one way or the other. */
const square = (x: number, y: number, side: number, reverse = false) => {
  const pts = [x, y, x + side, y, x + side, y + side, x, y + side];
  if (!reverse) return Int32Array.from(pts);
  const back: number[] = [];
  for (let i = pts.length - 2; i >= 0; i -= 2) back.push(pts[i]!, pts[i + 1]!);
  return Int32Array.from(back);
};

/** A glyph item drawing `ref` with 1 font unit to the point, y down, at (x, y). */
const glyph = (ref: string, x: number, y: number, opacity = 1, color = '#000000'): Item => ({
  kind: 'glyph',
  ref,
  m: [1, 0, 0, 1, x, y],
  color,
  opacity,
});

t.test('coverage as worked out by hand', async (t) => {
  const paper = 0xfd; // green of #fffdf6: the channel read below
  const g = (pixels: Uint8Array, width: number, x: number, y: number) => pixels[(y * width + x) * 4 + 1]!;
  // A black rule 1.5 px wide at 2 px to the pt: y from 10.25 to 11.75 px, x from 20.5 px.
  const rule: Item = { kind: 'rule', x1: 10.25, y1: 5.5, x2: 40, y2: 5.5, width: 0.75, color: '#000000' };
  const painted = paintPage(pageOf([rule]), 200, () => [], letterInk(pageOf([])));
  const expect = (cover: number) => Math.round(paper * (1 - cover));
  const px = (x: number, y: number) => g(painted.pixels, 200, x, y);
  t.ok(Math.abs(px(30, 10) - expect(0.75)) <= 1, `a row three quarters covered: ${px(30, 10)}`);
  t.ok(Math.abs(px(30, 11) - expect(0.75)) <= 1, `and the next: ${px(30, 11)}`);
  t.equal(px(30, 9), paper, 'above it, bare paper');
  t.equal(px(30, 12), paper, 'below it, bare paper');
  t.ok(Math.abs(px(20, 10) - expect(0.375)) <= 1, `its left end halves the pixel it cuts: ${px(20, 10)}`);

  // One shape overlapping itself is inked once; a contour wound the other way is a hole.
  const contours: Record<string, Int32Array[]> = {
    box: [square(0, 0, 20)],
    twice: [square(0, 0, 20), square(0, 0, 20)],
    ring: [square(0, 0, 20), square(5, 5, 10, true)],
  };
  const draw = (items: Item[]) => {
    const page = pageOf(items);
    return paintPage(page, 200, (ref) => contours[ref]!, letterInk(page)).pixels.slice();
  };
  const once = draw([glyph('box', 10, 10, 0.5)]);
  t.same(
    draw([glyph('twice', 10, 10, 0.5)]),
    once,
    'a contour drawn twice in one outline: the ink laid once',
  );
  t.same(
    draw([glyph('box', 10, 10, 0.5), glyph('box', 10, 10, 0.5)]),
    once,
    'two letters of one ink on one line overlapping: the ink laid once, as the SVG writer gathers them in one path',
  );
  t.ok(
    g(draw([glyph('box', 10, 10, 0.5), glyph('box', 10, 10, 0.5, '#000001')]), 200, 40, 40) <
      g(once, 200, 40, 40),
    'two letters of different inks: each laid over the other',
  );
  const ring = draw([glyph('ring', 10, 10)]);
  t.equal(g(ring, 200, 40, 40), paper, 'the hole of a ring is bare paper');
  t.equal(g(ring, 200, 24, 24), 0, 'its band is ink');

  // Cut at the image's edge: what is left is what the same square drawn whole shows there.
  const cut = draw([glyph('box', -10.3, 30)]);
  const whole = draw([glyph('box', 9.7, 30)]); // 40 px to the right
  let same = true;
  for (let y = 55; y < 105; y++)
    for (let x = 0; x < 22; x++) if (g(cut, 200, x, y) !== g(whole, 200, x + 40, y)) same = false;
  t.ok(same, 'a square across the left edge: its part on the image as drawn whole');
});

t.test('the image is the size resvg makes it, at every resolution', async (t) => {
  const sizes: [number, number][] = [
    [595.2755905511812, 841.8897637795277], // A4
    [419.5275590551181, 595.2755905511812], // A5
    [612, 792], // Letter
    [841.8897637795277, 595.2755905511812],
    [162.11, 199.39],
    [50, 40],
    [274.22, 358.78],
  ];
  // And sizes of any fraction.
  for (let i = 0; i < 40; i++) sizes.push([50 + ((i * 37.3791) % 700), 40 + ((i * 53.1377) % 900)]);
  const off: string[] = [];
  for (const [w, h] of sizes)
    for (const dpi of [72, 96, 144, 150, 300]) {
      const page = pageOf([], w, h);
      const width = Math.round((w / 72) * dpi);
      const ours = paintPage(page, width, () => [], letterInk(page));
      const theirs = raster(pageToSvg({ pages: [page], glyphs: {} }, page), { width });
      if (ours.height !== theirs.height)
        off.push(`${w} x ${h} pt at ${dpi} DPI: ${ours.height}, resvg ${theirs.height}`);
      await freeImages();
    }
  t.same(off, [], 'the same height for every page size and resolution');
});

t.test('what the painter leaves to resvg', async (t) => {
  const items: Item[] = [{ kind: 'rule', x1: 0, y1: 10, x2: 100, y2: 10, width: 0.5, color: '#999999' }];
  t.ok(paintable(pageOf(items)), 'a flat sheet of letters, rules, dots and lines');
  t.notOk(paintable(pageOf(items, 100, 60, { ...SHEET, tilt: 1 })), 'a tilted sheet');
  t.notOk(paintable(pageOf(items, 100, 60, { ...SHEET, shadow: 0.5 })), 'a sheet with a shadow');
  t.notOk(paintable(pageOf(items, 100, 60, { ...SHEET, scanner: true })), 'a scanned sheet');
  t.notOk(
    paintable(pageOf([...items, { kind: 'image', assetId: 'a', x: 0, y: 0, width: 10, height: 10 }])),
    'a page with an image',
  );
});

t.test(
  "a painted page's PNG rows: paper, the ink's stretches and the grain, as the whole image encoded",
  async (t) => {
    const { PNG } = await import('pngjs');
    const fonts = bundledChain(bundledFontSource('caveat'));
    const style = styleOf({ fontId: bundledFontId('caveat'), fontSize: 14 });
    const list = renderText({ style, text: LETTER, fonts });
    const page = list.pages[0]!;
    const paper = hexRgb(page.background);
    for (const dpi of [144, 96]) {
      const width = Math.round((page.width / 72) * dpi);
      const outlines = rasterOutlines(list, page, dpi / 72);
      const painted = paintPage(page, width, outlines.contours, letterInk(page));
      const { height, pixels } = painted;
      const ink = { pool: 0.3, dry: 0.2, bleed: 0.5, dpi, seed: 7, full: 200 };
      const spans = inkOnPaper(pixels, width, height, paper, ink, painted.drawn)!;
      const whole = new Uint8Array(pixels); // the RGBA image after the ink, before the grain
      let spanned = 0;
      for (let k = 0; k < spans.rows[height]!; k += 2) spanned += spans.of[k + 1]! - spans.of[k]!;
      t.ok(
        spanned > 0 && spanned < (width * height) / 2,
        `the ink's stretches are part of the page (${spanned} px)`,
      );

      const raw = paperRows(width, height, pixels, paper, spans);
      blendGrain(raw, width, height, width / page.width, 7, 0.25, {
        offset: 1,
        stride: 3 * width + 1,
        bpp: 3,
      });
      const rows = PNG.sync.read(Buffer.from(encodeRows(width, height, raw, true))).data;
      blendGrain(whole, width, height, width / page.width, 7, 0.25);
      const image = PNG.sync.read(Buffer.from(encodePng(width, height, whole))).data;
      t.ok(Buffer.compare(rows, image) === 0, `${dpi} DPI: the same pixels`);
      let [grained, inked] = [0, 0];
      for (let i = 0; i < image.length; i += 4) {
        const off =
          Math.abs(image[i]! - paper[0]) +
          Math.abs(image[i + 1]! - paper[1]) +
          Math.abs(image[i + 2]! - paper[2]);
        if (off > 0 && off < 30) grained++;
        if (off > 150) inked++;
      }
      t.ok(
        grained > width * height * 0.03 && inked > 1000,
        `${dpi} DPI: grain (${grained} px) and ink (${inked} px) in them`,
      );
    }
  },
);
