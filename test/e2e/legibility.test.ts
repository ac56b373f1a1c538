// Legible and measured: a fixed letter written with every effect off, at the defaults, with each
// modifier group at the top of its range, and with all of them there at once, read back by OCR
// (Debian's tesseract-ocr, English). The character error rate at the defaults stays within 0.02
// of effects off, and at the maxima within 0.10.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import t from 'tap';
import { layout, resourcesOf, writePng } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
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

/** The letter written with `modifiers` on an A5 sheet at 300 DPI, read back: its character error rate. */
async function errorRate(name: string, modifiers: Record<string, unknown>): Promise<number | null> {
  const spec = textSpec(
    { fontSize: 18, pageSize: 'A5', margins: { top: 10, right: 10, bottom: 10, left: 10 }, modifiers },
    LETTER,
  );
  const list = layout(spec, { fonts: fontBytes(resourcesOf(spec).fonts), images: {} });
  const file = join(DIR, `${name}.png`);
  writeFileSync(
    file,
    writePng(list, list.pages[0]!, 300, { raster, deflate: (b) => deflateSync(b, { level: 1 }) }),
  );
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
