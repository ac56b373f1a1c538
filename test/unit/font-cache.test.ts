// The render threads' font cache: bounded by the bytes of the font files it holds, least recently
// used first out; a dropped font is loaded anew when it is needed again; the fonts of the
// document being written stay whatever the bound. Another file under a font's id (a personal
// font rebuilt) is loaded afresh, and nothing drawn from the old file is reused.
import t from 'tap';
import { fontCacheState, forgetFont, loadFont, setFontCacheBytes } from '../../src/render/text/fonts.ts';
import { FONT_CACHE_DEFAULT_BYTES, layout, resourcesOf } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { textSpec } from '../helpers/specs.ts';

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

t.test('another file under an id (a rebuilt personal font) is loaded afresh, its drawings too', async (t) => {
  const id = `font_${'R'.repeat(22)}`;
  const spec = textSpec({ fontId: id }, 'hand');
  const written = (bytes: Uint8Array) => {
    const list = layout(spec, {
      fonts: { ...fontBytes(resourcesOf(spec).fonts.filter((f) => f !== id)), [id]: bytes },
      images: {},
    });
    return Object.values(list.glyphs)
      .filter((g) => g.font === id)
      .map((g) => g.path);
  };
  const first = loadFont({ id, bytes: kalam.bytes });
  t.equal(loadFont({ id, bytes: kalam.bytes }), first, 'the same file: the same font');
  const asKalam = written(kalam.bytes);
  const second = loadFont({ id, bytes: caveat.bytes });
  t.not(second, first, 'another file: loaded anew');
  t.equal(second.ascender, loadFont(caveat).ascender, "with the new file's metrics");
  const asCaveat = written(caveat.bytes);
  t.ok(
    asCaveat.length > 0 && asCaveat.every((p) => !asKalam.includes(p)),
    'no drawing of the old file is reused',
  );
  forgetFont(id);
  loadFont({ id, bytes: kalam.bytes });
  t.same(
    written(kalam.bytes),
    asKalam,
    'back to the first file, even after the cache let it go: its drawings again',
  );
});

t.test("the chain's other hands are opened only for a text the hand does not write whole", async (t) => {
  const { renderText } = await import('../../src/render/page/document.ts');
  const { bundledChain } = await import('../helpers/fonts.ts');
  const { styleOf } = await import('../helpers/specs.ts');
  setFontCacheBytes(FONT_CACHE_DEFAULT_BYTES);
  const chain = bundledChain(caveat);
  t.ok(chain.length > 2, `a chain of ${chain.length}`);
  const style = styleOf({ fontId: caveat.id, pageSize: 'A5' });
  const forgetAll = () => {
    for (const f of chain) forgetFont(f.id);
  };
  // Latin with accents the hand composes, punctuation, a tab, Windows line ends.
  const latin = 'Dear Zoë,\r\nthe café’s “façade” — €12,50 — and a tab\there.\nWith love, Tom';
  forgetAll();
  const written = renderText({ style, text: latin, fonts: chain });
  const opened = chain.filter((f) => forgetFont(f.id)).map((f) => f.id);
  t.same(opened, [caveat.id], 'only the hand was opened');
  // The same letters as with the hand alone given, and as with the whole chain opened beforehand.
  t.same(renderText({ style, text: latin, fonts: [caveat] }), written, 'the same as the hand alone');
  for (const f of chain) loadFont(f);
  t.same(renderText({ style, text: latin, fonts: chain }), written, 'the same with every hand open');
  // A line of Korean needs Nanum Pen Script: the chain is opened, and the Korean written in it.
  forgetAll();
  const mixed = renderText({ style, text: `${latin}\n안녕하세요`, fonts: chain });
  const nanum = bundledFontSource('nanum-pen-script');
  t.ok(forgetFont(nanum.id), 'Nanum Pen Script opened for the Korean');
  t.ok(
    Object.values(mixed.glyphs).some((g) => g.font === nanum.id),
    'and the Korean drawn from it',
  );
});
