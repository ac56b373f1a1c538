// Which characters a set of fonts cannot draw, found from their character maps alone: the check
// a job's text passes at submission, against what layout itself refuses.
import t from 'tap';
import { bundledFont } from '../../src/domain/fonts.ts';
import { readBundledFont } from '../../src/lib/font-files.ts';
import { fontReader, layout, RenderError, resourcesOf, uncoveredCharacters } from '../../src/render/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { textSpec } from '../helpers/specs.ts';

const { fontCoverage } = await fontReader();

/** A raw line or paragraph separator in an assertion's message would break the test output's lines. */
const shown = (s: string) => s.replace(/[\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

const caveat = bundledFontSource('caveat');
const kalam = bundledFontSource('kalam');
const covers = [fontCoverage(caveat.bytes), fontCoverage(kalam.bytes)];

t.test('named in order of first appearance, each once; spaces and line breaks need no glyph', async (t) => {
  t.same(uncoveredCharacters('Hello,\tworld.\r\n\u00a0Grüße', covers), []);
  t.same(uncoveredCharacters('नमस्ते', covers), [], 'Kalam writes Devanagari');
  t.same(uncoveredCharacters('a😀b😀 שש', covers), ['U+1F600 "😀"', 'U+05E9 "ש"']);
  t.equal(
    uncoveredCharacters('नमस्ते', covers.slice(0, 1)).length,
    6,
    'without Kalam, all six code points are missing',
  );
});

t.test('what the check finds is what layout refuses', async (t) => {
  for (const text of ['Hello 😀', 'one\u2028two', 'x\ufeffy', 'Grüße 漢字']) {
    const spec = textSpec({}, text);
    const fonts: Record<string, Uint8Array> = {};
    for (const id of resourcesOf(spec).fonts) fonts[id] = readBundledFont(bundledFont(id)!);
    const found = uncoveredCharacters(text, Object.values(fonts).map(fontCoverage));
    t.ok(found.length > 0, `${shown(text)}: refused up front (${shown(found.join(', '))})`);
    let refused: unknown = null;
    try {
      layout(spec, { fonts, images: {} });
    } catch (err) {
      refused = err;
    }
    t.ok(refused instanceof RenderError, 'layout refuses it too');
    for (const f of found) t.ok((refused as Error).message.includes(f), `naming ${shown(f)}`);
  }
  const fine = textSpec({}, 'Grüße, नमस्ते');
  const fonts: Record<string, Uint8Array> = {};
  for (const id of resourcesOf(fine).fonts) fonts[id] = readBundledFont(bundledFont(id)!);
  t.same(uncoveredCharacters('Grüße, नमस्ते', Object.values(fonts).map(fontCoverage)), []);
  t.doesNotThrow(() => layout(fine, { fonts, images: {} }), 'what passes is laid out');
});
