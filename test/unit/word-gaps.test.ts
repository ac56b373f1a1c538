// Words stay words: the visible space between two words' ink is at least WORD_GAP of the hand's
// x-height, in every bundled hand, with effects off, at the defaults and at the top of every
// setting. Measured on pixels: the words drawn red and blue in turn, rasterised at 150 DPI; the
// gap between two neighbours is the least distance from a pixel of one to a pixel of the other.
import t from 'tap';
import { bundledChain, bundledFontSource, HANDS } from '../helpers/fonts.ts';
import { LETTER } from '../helpers/ocr.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { renderText } from '../../src/render/page/document.ts';
import { freeImages } from '../helpers/drawn-images.ts';
import { letterBoxes, wordsInk } from '../helpers/ink.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, styleOf } from '../helpers/specs.ts';

/** The least gap between two words' ink, in x-heights (docs/handwriting.md, "Words"). */
const WORD_GAP = 0.4;
const DPI = 150;
const SIZE = 20;
const TEXTS = [
  'warm scarves and a lovely afternoon on Saturday in the hills, quietly; fox jumps by',
  'Peter has booked the cliffs. home happy and filthy. Never gonna give you up, my dear',
  'Dear Margaret, The garden looked wonderful, and I have not stopped thinking about',
];
const SETTINGS = { off: EFFECTS_OFF, defaults: {}, top: EFFECTS_AT_TOP } as const;
/** The least word space a template may ask for (style.wordSpacing, mm). */
const LEAST_WORD_SPACE = -2;
const px = DPI / 72;
const MM = 72 / 25.4;

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

/** Each pair of neighbouring words on the line: the gap between their ink, in x-heights. */
function wordGaps(
  slug: string,
  modifiers: Record<string, unknown>,
  text: string,
  seed: number,
  style: Record<string, unknown> = {},
): { pair: string; gap: number }[] {
  const ink = wordsInk(slug, modifiers, text, seed, SIZE, DPI, style);
  t.equal(ink.lines, 1, `${slug}: the text on one line`);
  const names = text.split(' ');
  return ink.words.slice(1).map((_, k) => ({
    pair: `${names[k]} ${names[k + 1]}`,
    gap: gap(ink.words[k]!, ink.words[k + 1]!, 0.5 * SIZE * px) / ink.xHeight,
  }));
}

for (const slug of HANDS) {
  t.test(`${slug}: at least ${WORD_GAP} x-height between words at every setting`, async (t) => {
    for (const [name, modifiers] of Object.entries(SETTINGS)) {
      for (const wordSpacing of [0, LEAST_WORD_SPACE]) {
        const gaps = TEXTS.flatMap((text, i) =>
          wordGaps(slug, modifiers, text, [5, 11, 1971][i]!, { wordSpacing }),
        );
        await freeImages();
        const least = gaps.reduce((a, b) => (b.gap < a.gap ? b : a));
        t.ok(
          least.gap >= WORD_GAP,
          `${name}${wordSpacing ? `, the least word space (${wordSpacing} mm)` : ''}: the narrowest gap is ${least.gap.toFixed(2)} x-height ("${least.pair}")`,
        );
      }
    }
  });
}

t.test(
  'the least word space wraps lines for the space the pen keeps: no line runs further past the right margin than at the default spacing',
  async (t) => {
    const text = `${LETTER} ${LETTER}`;
    /** How far the letters' ink boxes reach past the right margin, at most (pt). */
    const past = (slug: string, wordSpacing: number) => {
      const style = styleOf({ fontId: bundledFontId(slug), wordSpacing, pageSize: 'A5' });
      const list = renderText({ style, text, fonts: bundledChain(bundledFontSource(slug)) });
      const right = (page: (typeof list.pages)[number]) => page.width - style.margins.right * MM;
      return Math.max(
        ...list.pages.flatMap((page) => letterBoxes(list, page).map((b) => b.right - right(page))),
      );
    };
    // At the default spacing a line's own variation (its start's wobble, its letters' jitter)
    // carries ink a few points past the margin in some hands: the most of those is the bound.
    const usual = Math.max(...HANDS.map((slug) => past(slug, 0)));
    for (const slug of HANDS) {
      const least = past(slug, LEAST_WORD_SPACE);
      t.ok(
        least <= usual + 0.1 * 18,
        `${slug}: ${least.toFixed(1)} pt past the margin at ${LEAST_WORD_SPACE} mm (at the default spacing, at most ${usual.toFixed(1)} pt in any hand)`,
      );
    }
  },
);
