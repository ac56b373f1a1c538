// The bundled hands' strokes read ahead of time (workers/strokes-ahead.ts, when the release is
// built): the files in dist/server/strokes/ hold what a thread would read, and a thread that takes
// its strokes from there writes the same letter, byte for byte, as one that reads them itself. A
// table read from another file of the font is not taken.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { BUNDLED_FONTS, bundledFontId } from '../../src/domain/fonts.ts';
import { packageFile } from '../../src/lib/package-files.ts';
import {
  forgetFont,
  layout,
  readStrokesAhead,
  resourcesOf,
  type StrokesAhead,
  strokesReadAhead,
  writePdf,
} from '../../src/render/index.ts';
import { fontBytes, strokesAhead } from '../../workers/fonts.ts';
import { textSpec } from '../helpers/specs.ts';

const kept = (slug: string): StrokesAhead & { stamp: string } =>
  JSON.parse(readFileSync(packageFile('dist', 'server', 'strokes', `${slug}.json`), 'utf8'));

t.test("every bundled hand's file holds the strokes a thread reads", async (t) => {
  const sample = 'Never gonna give you up, Øre & Ça: 1-2?';
  for (const { slug } of BUNDLED_FONTS) {
    const id = bundledFontId(slug);
    const file = kept(slug);
    const read = readStrokesAhead({ id, bytes: fontBytes([id])[id]! }, sample);
    t.equal(file.file, read.file, `${slug}: read from the font file the thread has`);
    t.equal(file.joined, read.joined, `${slug}: joined ${read.joined}`);
    const gids = Object.keys(read.glyphs);
    t.ok(gids.length >= 15, `${slug}: ${gids.length} glyphs of the sample, with their alternates`);
    t.same(
      gids.filter((g) => JSON.stringify(file.glyphs[g]) !== JSON.stringify(read.glyphs[g])),
      [],
      `${slug}: each the same strokes, number for number`,
    );
  }
});

t.test('a letter written with the strokes read ahead is the letter written without them', async (t) => {
  const id = bundledFontId('dancing-script');
  const spec = textSpec(
    { fontId: id, pageSize: 'A5', modifiers: { seed: 42 } },
    'Dear Ann, the minimum of a joined hand: we hope to see you again before the summer ends.',
  );
  const resources = { fonts: fontBytes(resourcesOf(spec).fonts), images: {} };
  const opts = { createdAt: '2026-11-30T00:00:00Z' };
  const write = (lookup: (id: string) => StrokesAhead | undefined) => {
    let asked = 0;
    strokesReadAhead((x) => {
      asked++;
      return lookup(x);
    });
    for (const f of Object.keys(resources.fonts)) forgetFont(f);
    const pdf = Buffer.from(writePdf(layout(spec, resources), opts));
    return { pdf, asked };
  };
  const file = kept('dancing-script');
  const ahead = write((x) => (x === id ? file : undefined));
  const itself = write(() => undefined);
  // Every stroke of every glyph dropped: written as outlines, a different letter.
  const emptied = Object.fromEntries(Object.keys(file.glyphs).map((g) => [g, { c: false, s: [] }]));
  const tampered = write((x) => (x === id ? { ...file, glyphs: emptied } : undefined));
  const otherFile = write((x) => (x === id ? { ...file, file: '1:2', glyphs: emptied } : undefined));
  t.ok(ahead.asked > 0, 'the thread asked for the strokes read ahead');
  t.ok(ahead.pdf.equals(itself.pdf), `the same PDF (${ahead.pdf.length} bytes)`);
  t.notOk(tampered.pdf.equals(itself.pdf), 'strokes it is given are the ones it writes along');
  t.ok(otherFile.pdf.equals(itself.pdf), 'a table of another file of the font is not taken');
  // As workers/fonts.ts left it.
  strokesReadAhead(strokesAhead);
  for (const f of Object.keys(resources.fonts)) forgetFont(f);
});
