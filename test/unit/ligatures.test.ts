// A hand writes f, i, l and t letter by letter: no typeset ligature (fi, ff, fl, ffi, th) takes
// their place, so the i keeps its dot and the letters keep their own drawings. Measured on what
// the writers draw: each letter of the text is one letter drawing on the page (a ligature is one
// drawing for two or three letters), in every bundled hand, at the defaults.
import t from 'tap';
import { bundledChain, bundledFontSource, HANDS } from '../helpers/fonts.ts';
import { styleOf } from '../helpers/specs.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { renderText } from '../../src/render/page/document.ts';

const TEXT = 'fifty fluffy offices, the fifth field; a thin flint';
const LETTERS = [...TEXT.replace(/\s/g, '')];

for (const slug of HANDS) {
  t.test(`${slug}: every letter written as itself`, (t) => {
    const style = styleOf({ fontId: bundledFontId(slug), fontSize: 20 });
    const chain = bundledChain(bundledFontSource(slug));
    const list = renderText({ style, text: TEXT, fonts: chain });
    const glyphs = list.pages.flatMap((p) => p.items.filter((it) => it.kind === 'glyph'));
    t.equal(glyphs.length, LETTERS.length, `${LETTERS.length} letters, ${glyphs.length} drawings`);

    t.equal(list.pages[0]!.lines.map((l) => l.visual).join(' '), TEXT, 'the text layer reads the text');
    t.end();
  });
}
