// Words stay words: the visible space between two words' ink is at least WORD_GAP of the hand's
// x-height, in every bundled hand, with effects off, at the defaults and at the top of every
// setting. Measured on pixels: the words drawn red and blue in turn, rasterised at 150 DPI; the
// gap between two neighbours is the least distance from a pixel of one to a pixel of the other.
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
const DPI = 150;
const SIZE = 20;
const TEXTS = [
  'warm scarves and a lovely afternoon on Saturday in the hills, quietly; fox jumps by',
  'Peter has booked the cliffs. home happy and filthy. Never gonna give you up, my dear',
];
const SETTINGS = { off: EFFECTS_OFF, defaults: {}, top: EFFECTS_AT_TOP } as const;
const px = DPI / 72;

/** Pixels of red and of blue ink on an RGBA image, as [x, y]. */
function coloured(rgba: Uint8Array, w: number): { red: [number, number][]; blue: [number, number][] } {
  const red: [number, number][] = [];
  const blue: [number, number][] = [];
  for (let i = 0; i < rgba.length / 4; i++) {
    const [r, g, b] = [rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!];
    if (r - Math.max(g, b) > 60) red.push([i % w, Math.floor(i / w)]);
    else if (b - Math.max(r, g) > 60) blue.push([i % w, Math.floor(i / w)]);
  }
  return { red, blue };
}

/** The least distance (px) between two sets of pixels, looking only where they face each other. */
function gap(left: [number, number][], right: [number, number][], reach: number): number {
  const leftEnd = Math.max(...left.map((p) => p[0]));
  const rightStart = Math.min(...right.map((p) => p[0]));
  const window = Math.max(0, leftEnd - rightStart) + reach;
  const a = left.filter((p) => p[0] >= rightStart - window);
  const b = right.filter((p) => p[0] <= leftEnd + window);
  let least = Infinity;
  for (const p of a) for (const q of b) least = Math.min(least, Math.hypot(p[0] - q[0], p[1] - q[1]));
  return least;
}

/**
 * Each pair of neighbouring words on the line: the gap between their ink, in x-heights. The
 * words are drawn red and blue in turn, once; a word's pixels are those of its colour from
 * where it starts to where the next word of its colour starts.
 */
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
  const start = words.map((w) => Math.min(...glyphs.filter((g) => g.word === w).map((g) => g.m[4] * px)));
  const drawn: DisplayPage = {
    ...page,
    background: '#ffffff',
    items: glyphs.map((g) => ({
      ...g,
      color: words.indexOf(g.word!) % 2 ? '#0000ff' : '#ff0000',
      opacity: 1,
    })),
  };
  const image = new Resvg(writeSvg(list, drawn), { fitTo: { mode: 'zoom', value: px } }).render();
  const ink = coloured(image.pixels, image.width);
  const before = 0.5 * SIZE * px; // a letter may reach this far left of its pen position
  const ofWord = (k: number) =>
    (k % 2 ? ink.blue : ink.red).filter(
      (p) => p[0] >= start[k]! - before && p[0] < (start[k + 2] ?? Infinity) - before,
    );
  const names = text.split(' ');
  return words.slice(1).map((_, k) => ({
    pair: `${names[k]} ${names[k + 1]}`,
    gap: gap(ofWord(k), ofWord(k + 1), 0.5 * SIZE * px) / xHeight,
  }));
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
