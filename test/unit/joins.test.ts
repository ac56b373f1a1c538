// A connected hand joins: the stroke out of one letter runs into the next as one pen movement,
// whatever the hand's variation does to each letter. Measured on rendered pages: every join the
// font makes when set plainly stays closed at the defaults and at the top of every setting (no
// word breaks into more pieces of ink), and where two letters' ink overlaps at a join it is one
// tone, never darker than the ink of either (no doubled ink).
import { deflateSync } from 'node:zlib';
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { freeImages } from '../helpers/drawn-images.ts';
import { inkOf, inkPieces, inLines } from '../helpers/ink.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, styleOf } from '../helpers/specs.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { solidInk } from '../../src/render/color.ts';
import { renderText } from '../../src/render/page/document.ts';
import { writePng } from '../../src/render/index.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';

const WORDS = [
  'minimum',
  'summer',
  'common',
  'humming',
  'manner',
  'museum',
  'annum',
  'union',
  'menu',
  'nimble',
];
const DPI = 200;
const SIZE = 24;
const SETTINGS = { off: EFFECTS_OFF, defaults: {}, top: EFFECTS_AT_TOP } as const;

/** Each word on its own line, on a plain sheet: the pieces of ink of each, and the page's darkest pixel against its darkest ink. */
function written(slug: string, modifiers: Record<string, unknown>, seed: number) {
  const style = styleOf({
    fontId: bundledFontId(slug),
    fontSize: SIZE,
    lineHeight: 2,
    modifiers: { ...modifiers, seed, paper: { enabled: false } },
  });
  const list = renderText({ style, text: WORDS.join('\n'), fonts: bundledChain(bundledFontSource(slug)) });
  // Without the ink's tone in the pixels (soften.ts, inkOnPaper: thick ink, a pool or a crossing,
  // drawn darker), which is not a join doubling the ink and is tested on its own (ink.test.ts).
  const page = list.pages[0]!;
  const untoned = { ...page, sheet: { ...page.sheet, pool: 0 } };
  const png = writePng(list, untoned, DPI, { raster, deflate: (b) => deflateSync(b) });
  // Ink: anything clearly darker than the sheet (the palest ink, a dry pen's, is far darker).
  const ink = inkOf(png, 215);
  const pitch = ((SIZE * 2) / 72) * DPI;
  const words = inLines(inkPieces(ink), pitch / 2).map((pieces) => {
    // A dot or a bar standing apart is part of the letter, not a break in the word.
    const big = Math.max(...pieces.map((p) => p.area));
    return pieces.filter((p) => p.area > 0.04 * big).length;
  });
  const mean = (hex: string) =>
    [1, 3, 5].reduce((s, i) => s + Number.parseInt(hex.slice(i, i + 2), 16), 0) / 3;
  let darkestInk = 255;
  for (const it of page.items)
    if (it.kind === 'glyph')
      darkestInk = Math.min(darkestInk, mean(solidInk(it.color, it.opacity, page.background)));
  return { words, darkest: ink.darkest, darkestInk };
}

for (const slug of ['dancing-script', 'homemade-apple']) {
  t.test(`${slug}: no join opens, no join doubles the ink`, async (t) => {
    for (const seed of [1, 7]) {
      const plain = written(slug, SETTINGS.off, seed);
      t.equal(plain.words.length, WORDS.length, 'a line of ink for each word');
      for (const [name, modifiers] of Object.entries(SETTINGS)) {
        const w = name === 'off' ? plain : written(slug, modifiers, seed);
        await freeImages();
        const opened = WORDS.filter((_, i) => w.words[i]! > plain.words[i]!);
        t.same(
          opened,
          [],
          `seed ${seed}, ${name}: pieces per word ${w.words.join(' ')} (set plainly ${plain.words.join(' ')})`,
        );
        t.ok(
          w.darkest >= w.darkestInk - 2,
          `seed ${seed}, ${name}: the darkest pixel (${w.darkest.toFixed(0)}) is no darker than the darkest ink (${w.darkestInk.toFixed(0)})`,
        );
      }
    }
  });
}

t.test('Dancing Script: every word one movement of the pen at every setting', async (t) => {
  for (const [name, modifiers] of Object.entries(SETTINGS)) {
    const w = written('dancing-script', modifiers, 3);
    t.ok(
      w.words.every((n) => n === 1),
      `${name}: pieces of ink per word ${w.words.join(' ')}`,
    );
  }
});
