// Legible and measured: a fixed letter written with every effect off, at the defaults, with each
// modifier group at the top of its range, and with all of them there at once, read back by OCR
// (Debian's tesseract-ocr, English). The character error rate at the defaults stays within 0.02
// of effects off, and at the maxima within 0.10: in the default hand for every group, and in
// every other bundled hand at the defaults and with every group at its top at once (where the OCR
// reads the hand set plainly well enough to measure by: READABLE). Each line is read in a band of
// its own (inBands).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import t from 'tap';
import { layout, resourcesOf, writePng } from '../../src/render/index.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { HANDS } from '../helpers/fonts.ts';
import { EFFECTS_AT_TOP, EFFECTS_OFF, textSpec } from '../helpers/specs.ts';

const run = promisify(execFile);
const DIR = mkdtempSync(join(tmpdir(), 'scriptorium-ocr-'));
t.teardown(() => rmSync(DIR, { recursive: true, force: true }));

const LETTER =
  'Dear Margaret, thank you so much for the lovely afternoon tea last Sunday. The garden looked ' +
  'wonderful, and the roses by the gate were in full bloom. We hope to see you again before the ' +
  'summer ends, perhaps at the river.';

const OFF = EFFECTS_OFF;
const TOPS = EFFECTS_AT_TOP;

/** Levenshtein distance over characters. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

const words = (s: string) => s.replace(/\s+/g, ' ').trim();

const DPI = 300;
/**
 * The most of the letter set plainly that the OCR may misread for a hand's maxima to be measured by
 * it: tesseract reads the connected scripts (Dancing Script 0.28, Homemade Apple 0.51) too poorly.
 */
const READABLE = 0.1;

/**
 * The page's lines, each cut out in a band from an ascender's height above its baseline to a
 * descender's depth below it (an em either side of the writing), set one under the other with a
 * blank between: the OCR's page segmentation, not the writing, otherwise decides whether a line
 * of a flowing script is read at all (read whole, the page of Dancing Script set plainly loses two
 * lines, and the scanner's shaded edges read as letters).
 */
function inBands(png: Uint8Array, lines: { x: number; y: number; width: number; size: number }[]): Buffer {
  const page = PNG.sync.read(Buffer.from(png));
  const px = DPI / 72;
  const pad = Math.max(...lines.map((l) => l.size));
  const left = Math.max(0, Math.round((Math.min(...lines.map((l) => l.x)) - pad) * px));
  const right = Math.min(page.width, Math.round((Math.max(...lines.map((l) => l.x + l.width)) + pad) * px));
  const bands = lines.map((l) => {
    const top = Math.max(0, Math.round((l.y - 1.1 * l.size) * px));
    const bottom = Math.min(page.height, Math.round((l.y + 0.45 * l.size) * px));
    return { top, height: bottom - top };
  });
  const gap = Math.round(0.6 * pad * px);
  const out = new PNG({ width: right - left, height: bands.reduce((h, b) => h + b.height + gap, gap) });
  out.data.fill(255);
  let y = gap;
  for (const b of bands) {
    for (let row = 0; row < b.height; row++) {
      const from = ((b.top + row) * page.width + left) * 4;
      page.data.copy(out.data, (y + row) * out.width * 4, from, from + out.width * 4);
    }
    y += b.height + gap;
  }
  return PNG.sync.write(out);
}

/** The letter written with `modifiers` on an A5 sheet at 300 DPI, read back: its character error rate. */
async function errorRate(
  name: string,
  modifiers: Record<string, unknown>,
  hand = 'caveat',
): Promise<number | null> {
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
  const png = writePng(list, page, DPI, { raster, deflate: (b) => deflateSync(b, { level: 1 }) });
  const file = join(DIR, `${hand}-${name}.png`);
  writeFileSync(file, inBands(png, page.lines));
  try {
    const { stdout } = await run('tesseract', [file, '-', '--psm', '6', '-l', 'eng']);
    return distance(words(stdout), words(LETTER)) / words(LETTER).length;
  } catch (err) {
    if (process.env.CI || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return null;
  }
}

t.test(
  'OCR reads the letter at the defaults as well as typeset, and at every maximum nearly so',
  async (t) => {
    const off = await errorRate('off', OFF);
    if (off === null) {
      t.comment('tesseract is not installed: skipped (CI installs it)');
      return;
    }
    t.ok(off < 0.02, `effects off: character error rate ${off.toFixed(3)}`);
    const defaults = (await errorRate('defaults', {}))!;
    t.ok(defaults - off <= 0.02, `defaults: ${defaults.toFixed(3)}, within 0.02 of effects off`);
    for (const [group, top] of Object.entries(TOPS)) {
      const rate = (await errorRate(group, { [group]: top }))!;
      t.ok(rate - off <= 0.1, `${group} at its top: ${rate.toFixed(3)}, within 0.10 of effects off`);
    }
    const all = (await errorRate('all', TOPS))!;
    t.ok(
      all - off <= 0.1,
      `every modifier at its top at once: ${all.toFixed(3)}, within 0.10 of effects off`,
    );
  },
);

for (const hand of HANDS.filter((h) => h !== 'caveat')) {
  t.test(
    `${hand}: OCR reads the letter at the defaults as well as typeset, and at the top nearly so`,
    async (t) => {
      const off = await errorRate('off', OFF, hand);
      if (off === null) {
        t.comment('tesseract is not installed: skipped (CI installs it)');
        return;
      }
      const defaults = (await errorRate('defaults', {}, hand))!;
      t.ok(
        defaults - off <= 0.02,
        `defaults: ${defaults.toFixed(3)}, within 0.02 of effects off (${off.toFixed(3)})`,
      );
      const all = (await errorRate('all', TOPS, hand))!;
      if (off > READABLE) {
        t.comment(
          `every modifier at its top: ${all.toFixed(3)}; the OCR misreads ${off.toFixed(3)} of this script set plainly, too much to measure by`,
        );
        return;
      }
      t.ok(all - off <= 0.1, `every modifier at its top: ${all.toFixed(3)}, within 0.10 of effects off`);
    },
  );
}
