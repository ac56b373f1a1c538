// The render threads' font cache: bounded by the bytes of the font files it holds, least recently
// used first out; a dropped font is loaded anew when it is needed again; the fonts of the
// document being written stay whatever the bound.
import t from 'tap';
import { fontCacheState, forgetFont, loadFont, setFontCacheBytes } from '../../src/render/fonts.ts';
import { FONT_CACHE_DEFAULT_BYTES } from '../../src/render/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';

const caveat = bundledFontSource('caveat');
const kalam = bundledFontSource('kalam');
const indie = bundledFontSource('indie-flower');

t.teardown(() => setFontCacheBytes(FONT_CACHE_DEFAULT_BYTES));

t.test('the least recently used font leaves first, and only past the bound', async (t) => {
  setFontCacheBytes(FONT_CACHE_DEFAULT_BYTES);
  for (const f of [caveat, kalam, indie]) forgetFont(f.id);
  const base = fontCacheState();
  const a = loadFont(caveat);
  const b = loadFont(kalam);
  t.equal(fontCacheState().fonts, base.fonts + 2);
  t.equal(
    fontCacheState().bytes,
    base.bytes + caveat.bytes.length + kalam.bytes.length,
    'counted by file bytes',
  );
  t.equal(loadFont(caveat), a, 'a cached font is the same object');
  // Room for what is there now and no more: the next font pushes out the least recently used.
  setFontCacheBytes(fontCacheState().bytes);
  loadFont(indie);
  t.equal(loadFont(caveat), a, 'caveat, used after kalam, stays');
  t.not(loadFont(kalam), b, 'kalam, the least recently used, was dropped and is loaded anew');
  t.ok(
    fontCacheState().bytes <= fontCacheState().maxBytes || fontCacheState().fonts === 1,
    'within the bound',
  );
});

t.test('a font larger than the bound is still loaded for the document that needs it', async (t) => {
  setFontCacheBytes(1024);
  const big = loadFont(caveat);
  t.equal(big.id, caveat.id);
  t.ok(big.covers('a'.codePointAt(0)!), 'and it works');
  t.equal(fontCacheState().fonts, 1, 'the cache holds it alone');
  loadFont(kalam);
  t.equal(fontCacheState().fonts, 1, 'and lets it go for the next');
  t.ok(big.covers('b'.codePointAt(0)!), 'a document still holding it can use it');
});

t.test('a dropped font takes its script-limited variants with it', async (t) => {
  setFontCacheBytes(FONT_CACHE_DEFAULT_BYTES);
  const plain = loadFont(caveat);
  const variant = loadFont({ ...caveat, typeset: ['Cyrillic'] });
  t.same(variant.typeset, ['Cyrillic']);
  t.equal(loadFont({ ...caveat, typeset: ['Cyrillic'] }), variant, 'a variant is kept with its font');
  t.equal(Object.getPrototypeOf(variant), plain, 'sharing its HarfBuzz objects');
  t.ok(forgetFont(caveat.id), 'dropped');
  t.notOk(forgetFont(caveat.id), 'once');
  t.not(loadFont({ ...caveat, typeset: ['Cyrillic'] }), variant, 'the variant is made anew');
});
