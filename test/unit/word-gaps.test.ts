// Words stay words: the visible space between two words' ink is at least WORD_GAP of the hand's
// x-height, in every bundled hand, with effects off, at the defaults and at the top of every
// setting. Measured on pixels: each pair of neighbouring words drawn alone, one red and one
// blue, rasterised at 200 DPI; the gap is the least distance from a red pixel to a blue one.
import { Resvg } from '@resvg/resvg-js';
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, styleOf } from '../helpers/specs.ts';
import { BUNDLED_FONTS, bundledFontId } from '../../src/domain/fonts.ts';
import type { DisplayPage } from '../../src/render/display-list.ts';
import { renderText } from '../../src/render/document.ts';
import { loadFont } from '../../src/render/fonts.ts';
import { writeSvg } from '../../src/render/index.ts';

/** The least gap between two words' ink, in x-heights (docs/handwriting.md, "Words"). */
const WORD_GAP = 0.35;
const DPI = 200;
const SIZE = 20;
const TEXTS = [
  'warm scarves and a lovely afternoon on Saturday in the hills, quietly; fox jumps by',
  'Peter has booked the cliffs. home happy and filthy. Never gonna give you up, my dear',
];
const SETTINGS = { off: EFFECTS_OFF, defaults: {}, top: EFFECTS_AT_TOP } as const;
const px = DPI / 72;

/** The least distance (px) between red and blue ink on an RGBA image. */
function gap(rgba: Uint8Array, w: number): number {
  const red: [number, number][] = [];
  const blue: [number, number][] = [];
  for (let i = 0; i < rgba.length / 4; i++) {
    const [r, g, b] = [rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!];
    if (r - Math.max(g, b) > 60) red.push([i % w, Math.floor(i / w)]);
    else if (b - Math.max(r, g) > 60) blue.push([i % w, Math.floor(i / w)]);
  }
  // Only the facing edges can be nearest: red's right part, blue's left part.
  const redRight = Math.max(...red.map((p) => p[0]));
  const blueLeft = Math.min(...blue.map((p) => p[0]));
  const reach = Math.max(0, redRight - blueLeft) + 40 * px;
  const a = red.filter((p) => p[0] >= blueLeft - reach);
  const b = blue.filter((p) => p[0] <= redRight + reach);
  let least = Infinity;
  for (const p of a) for (const q of b) least = Math.min(least, Math.hypot(p[0] - q[0], p[1] - q[1]));
  return least;
}

/** Each pair of neighbouring words on the line: the gap between their ink, in x-heights. */
function wordGaps(
  slug: string,
  modifiers: Record<string, unknown>,
  text: string,
  seed: number,
): { pair: string; gap: number }[] {
  const style = styleOf({
    fontId: bundledFontId(slug),
    fontSize: SIZE,
    pageSize: { name: 'strip', width: 400, height: 60, unit: 'mm' },
    margins: { top: 10, right: 10, bottom: 5, left: 10 },
    modifiers: { ...modifiers, seed, paper: { enabled: false } },
  });
  const fonts = bundledChain(bundledFontSource(slug));
  const list = renderText({ style, text, fonts });
  const page = list.pages[0]!;
  t.equal(page.lines.length, 1, `${slug}: the text on one line`);
  const font = loadFont(fonts[0]!);
  const xHeight = ((font.reach.x ?? font.upem / 2) / font.upem) * SIZE * px;
  const glyphs = page.items.filter((i) => i.kind === 'glyph');
  const words = [...new Set(glyphs.map((g) => g.word!))].sort((a, b) => a - b);
  const names = text.split(' ');
  const out: { pair: string; gap: number }[] = [];
  for (let k = 0; k + 1 < words.length; k++) {
    const two: DisplayPage = {
      ...page,
      background: '#ffffff',
      items: glyphs.flatMap((g) =>
        g.word === words[k]
          ? [{ ...g, color: '#ff0000', opacity: 1 }]
          : g.word === words[k + 1]
            ? [{ ...g, color: '#0000ff', opacity: 1 }]
            : [],
      ),
    };
    const image = new Resvg(writeSvg(list, two), { fitTo: { mode: 'zoom', value: px } }).render();
    out.push({ pair: `${names[k]} ${names[k + 1]}`, gap: gap(image.pixels, image.width) / xHeight });
  }
  return out;
}

/** Every bundled hand (the bold cuts are the same hands). */
const HANDS = BUNDLED_FONTS.map((f) => f.slug).filter((s) => !s.endsWith('-bold'));

for (const slug of HANDS) {
  t.test(`${slug}: at least ${WORD_GAP} x-height between words at every setting`, async (t) => {
    for (const [name, modifiers] of Object.entries(SETTINGS)) {
      const gaps = TEXTS.flatMap((text, i) => wordGaps(slug, modifiers, text, 5 + 6 * i));
      const least = gaps.reduce((a, b) => (b.gap < a.gap ? b : a));
      t.ok(
        least.gap >= WORD_GAP,
        `${name}: the narrowest gap is ${least.gap.toFixed(2)} x-height ("${least.pair}")`,
      );
    }
  });
}
