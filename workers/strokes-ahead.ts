// The bundled hands' strokes, read when the release is built (scripts/build.mjs runs this built
// program): a render thread would otherwise read every glyph's centrelines the first time it writes
// it, about half of a fresh thread's first letter. For each hand named on the command line, the
// strokes of its printable ASCII and Latin-1 glyphs go to `<dir>/<slug>.json`, with a stamp of
// this program's code and the font file; a hand whose file carries the same stamp is left as it is.
// The hands are shared among `parts` processes: this one reads every `parts`-th from the `part`-th,
// and prints each one's slug.
//   node dist/server/strokes-ahead.js <dir> <part> <parts>
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledFontId, BUNDLED_FONTS } from '../src/domain/fonts.ts';
import { readBundledFont } from '../src/lib/font-files.ts';
import { readStrokesAhead } from '../src/render/index.ts';

/** The characters whose glyphs are read ahead: printable ASCII and Latin-1. */
const AHEAD_TEXT = String.fromCodePoint(
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i),
);

const [dir, part = '0', parts = '1'] = process.argv.slice(2);
if (!dir) throw new Error('usage: strokes-ahead <dir> <part> <parts>');
const code = readFileSync(fileURLToPath(import.meta.url));
mkdirSync(dir, { recursive: true });
for (const [i, font] of BUNDLED_FONTS.entries()) {
  if (i % Number(parts) !== Number(part)) continue;
  const { slug } = font;
  process.stdout.write(`${slug}\n`);
  const bytes = readBundledFont(font);
  const stamp = createHash('sha256').update(code).update(bytes).digest('hex').slice(0, 32);
  const file = join(dir, `${slug}.json`);
  if (existsSync(file) && readFileSync(file, 'utf8').startsWith(`{"stamp":"${stamp}"`)) continue;
  const read = readStrokesAhead({ id: bundledFontId(slug), bytes }, AHEAD_TEXT);
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify({ stamp, ...read }));
  renameSync(`${file}.${process.pid}.tmp`, file);
}
