// Legible and measured: a fixed letter written with every effect off, at the defaults, with each
// modifier group at the top of its range, and with all of them there at once, read back by OCR
// (Debian's tesseract-ocr, English). The character error rate at the defaults stays within 0.02
// of effects off, and at the maxima within 0.10: in the default hand for every group, and in
// every other bundled hand at the defaults (the mean over five seeds) and with every group at its
// top at once (where the OCR reads the hand set plainly well enough to measure by: READABLE). Each
// line is read in a band of its own (inBands); a test's pages are read in one run of the OCR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import t from 'tap';
import { layout, resourcesOf, writePng } from '../../src/render/index.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { HANDS } from '../helpers/fonts.ts';
import { freeImages } from '../helpers/drawn-images.ts';
import { LETTER, ocrErrorRates, type PageToRead } from '../helpers/ocr.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, textSpec } from '../helpers/specs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'scriptorium-ocr-'));
t.teardown(() => rmSync(DIR, { recursive: true, force: true }));

const OFF = EFFECTS_OFF;
const TOPS = EFFECTS_AT_TOP;

const DPI = 300;
/**
 * The most of the letter set plainly that the OCR may misread for a hand's maxima to be measured by
 * it: tesseract reads the connected scripts (Dancing Script 0.28, Homemade Apple 0.51) too poorly.
 */
const READABLE = 0.1;
/**
 * Hands whose defaults read measurably worse than the hand set plainly, and why: held to a bound
 * of their own until the hand is mended, so that they get no worse (docs/handwriting.md).
 */
const GAPS: Record<string, { most: number; why: string }> = {
  'shadows-into-light': {
    most: 0.075,
    why: "its r is a v with a short shoulder, which the pen's weight closes: roses is read voses",
  },
};
/** The hand's own seed (0: the default) and four others, for a hand's rate at the defaults. */
const SEEDS = [0, 2, 3, 4, 5];
/** Rates are whole letters of the 220 read: a difference at a bound must not fail on rounding. */
const EPSILON = 1e-9;

/**
 * The letter written with `modifiers` on an A5 sheet at 300 DPI, in the engine's PNG (stored, not
 * compressed: it is read back at once; zlib's CRC-32, ten times the engine's own over a page).
 */
function written(name: string, modifiers: Record<string, unknown>, hand = 'caveat'): PageToRead {
  const spec = textSpec(
    {
      fontId: bundledFontId(hand),
      fontSize: 18,
      pageSize: 'A5',
      margins: { top: 10, right: 10, bottom: 10, left: 10 },
      modifiers,
    },
    LETTER,
  );
  const list = layout(spec, { fonts: fontBytes(resourcesOf(spec).fonts), images: {} });
  const page = list.pages[0]!;
  const png = writePng(list, page, DPI, {
    raster,
    deflate: (b) => deflateSync(b, { level: 0 }),
    crc32: (b) => crc32(b),
  });
  return { png, lines: page.lines, file: join(DIR, `${hand}-${name}.ppm`) };
}

/** The pages read back in one run of the OCR: their character error rates, in order (null: no OCR here). */
async function read(pages: PageToRead[]): Promise<number[] | null> {
  const rates = await ocrErrorRates(pages, { dpi: DPI, text: LETTER });
  await freeImages();
  return rates;
}

const OTHERS = HANDS.filter((h) => h !== 'caveat');
/**
 * Each other hand set plainly, read in one run of the OCR first: a hand it reads too poorly to
 * measure by is not written at its defaults and its top.
 */
const plainly = await read(OTHERS.map((hand) => written('off', OFF, hand)));

t.test(
  'OCR reads the letter at the defaults as well as typeset, and at every maximum nearly so',
  async (t) => {
    const groups = Object.entries(TOPS);
    const rates = await read([
      written('off', OFF),
      written('defaults', {}),
      ...groups.map(([group, top]) => written(group, { [group]: top })),
      written('all', TOPS),
    ]);
    if (rates === null) {
      t.comment('tesseract is not installed: skipped (CI installs it)');
      return;
    }
    const [off, defaults] = [rates[0]!, rates[1]!];
    t.ok(off < 0.02, `effects off: character error rate ${off.toFixed(3)}`);
    t.ok(defaults - off <= 0.02 + EPSILON, `defaults: ${defaults.toFixed(3)}, within 0.02 of effects off`);
    t.ok(
      defaults <= 0.035 + EPSILON,
      `defaults: at most 0.035 of the letter misread (${defaults.toFixed(3)})`,
    );
    for (const [i, [group]] of groups.entries()) {
      const rate = rates[2 + i]!;
      t.ok(
        rate - off <= 0.1 + EPSILON,
        `${group} at its top: ${rate.toFixed(3)}, within 0.10 of effects off`,
      );
    }
    const all = rates[2 + groups.length]!;
    t.ok(
      all - off <= 0.1 + EPSILON,
      `every modifier at its top at once: ${all.toFixed(3)}, within 0.10 of effects off`,
    );
  },
);

for (const [h, hand] of OTHERS.entries()) {
  t.test(
    `${hand}: OCR reads the letter at the defaults as well as typeset, and at the top nearly so`,
    async (t) => {
      if (plainly === null) {
        t.comment('tesseract is not installed: skipped (CI installs it)');
        return;
      }
      const off = plainly[h]!;
      if (off > READABLE) {
        // One letter in 220 more or less misread is the OCR's noise on a script it cannot read.
        t.comment(`the OCR misreads ${off.toFixed(3)} of this script set plainly, too much to measure by`);
        return;
      }
      const rates = (await read([
        ...SEEDS.map((seed) => written(`defaults-${seed}`, seed ? { seed } : {}, hand)),
        written('all', TOPS, hand),
      ]))!;
      // At the defaults, the mean over SEEDS: one seed's rate moves by ±0.015 from seed to seed
      // (Shadows Into Light: 0.018-0.050 over six), too much to hold to 0.02.
      const defaults = rates.slice(0, SEEDS.length).reduce((a, r) => a + r, 0) / SEEDS.length;
      const gap = GAPS[hand];
      if (gap)
        t.ok(
          defaults <= gap.most + EPSILON,
          `defaults (${SEEDS.length} seeds): ${defaults.toFixed(3)}, at most ${gap.most} (a known gap: ${gap.why}; effects off ${off.toFixed(3)})`,
        );
      else
        t.ok(
          defaults - off <= 0.02 + EPSILON,
          `defaults (${SEEDS.length} seeds): ${defaults.toFixed(3)}, within 0.02 of effects off (${off.toFixed(3)})`,
        );
      const all = rates[SEEDS.length];
      t.ok(
        all! - off <= 0.1 + EPSILON,
        `every modifier at its top: ${all!.toFixed(3)}, within 0.10 of effects off`,
      );
    },
  );
}
