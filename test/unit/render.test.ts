// The render engine as a library: determinism, every effect's off switch, fallback, bidi and
// complex scripts, page geometry, ruled paper and writers (its purity: render-purity.test.ts; its
// PDFs as qpdf and poppler read them: test/e2e/pdf-readers.test.ts).
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { styleOf } from '../helpers/specs.ts';
import { MM } from '../../src/render/display-list.ts';
import { renderText } from '../../src/render/document.ts';
import { pageSizePt, writePng } from '../../src/render/index.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { pageToSvg } from '../../src/render/svg.ts';
import type { RenderError } from '../../src/render/text-layout.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';

const style = styleOf;
const fonts = bundledChain(bundledFontSource('caveat'));
const LETTER =
  'Dear friend, thank you for the lovely afternoon. The garden looked wonderful and the roses by the gate were in full bloom.';
const OFF = {
  letters: { enabled: false },
  words: { enabled: false },
  lines: { enabled: false },
  ink: { enabled: false },
  fatigue: { enabled: false },
  paper: { enabled: false },
};

t.test('same seed and input give identical output; another seed does not', async (t) => {
  const a = renderText({ style: style(), text: LETTER, fonts });
  const b = renderText({ style: style(), text: LETTER, fonts });
  t.equal(pageToSvg(a, a.pages[0]!), pageToSvg(b, b.pages[0]!));
  const c = renderText({ style: style({ modifiers: { seed: 2 } }), text: LETTER, fonts });
  t.not(pageToSvg(c, c.pages[0]!), pageToSvg(a, a.pages[0]!));
});

t.test('no two instances of a letter on a page are the same; all effects off makes them plain', async (t) => {
  const list = renderText({ style: style(), text: LETTER, fonts });
  const seen = new Set<string>();
  const glyphs = list.pages[0]!.items.filter((i) => i.kind === 'glyph');
  for (const g of glyphs)
    seen.add(
      `${g.ref}|${g.m
        .slice(0, 4)
        .map((v) => v.toFixed(5))
        .join(',')}`,
    );
  t.equal(seen.size, glyphs.length, 'every instance differs in outline variant or transform');
  t.ok(
    Object.values(list.glyphs).some((d) => d.variant > 0),
    'warped variants are used',
  );

  const plain = renderText({ style: style({ modifiers: OFF }), text: LETTER, fonts });
  const items = plain.pages[0]!.items.filter((i) => i.kind === 'glyph');
  t.ok(
    items.every((g) => g.m[1] === 0 && g.m[2] === 0),
    'no rotation',
  );
  t.ok(
    items.every((g) => g.opacity === 1 && g.color === '#1b2a6b'),
    'no ink variation',
  );
  t.ok(
    Object.values(plain.glyphs).every((d) => d.variant === 0),
    'no warps',
  );
  const scales = new Set(items.map((g) => g.m[0].toFixed(6)));
  t.equal(scales.size, 1, 'one size');
});

t.test('each effect is switched off by its own setting', async (t) => {
  const on = renderText({ style: style(), text: LETTER, fonts }).pages[0]!;
  for (const [name, off] of Object.entries(OFF)) {
    if (name === 'paper') continue;
    const page = renderText({ style: style({ modifiers: { [name]: off } }), text: LETTER, fonts }).pages[0]!;
    t.not(JSON.stringify(page.items), JSON.stringify(on.items), `${name}: turning it off changes the page`);
  }
  const tilted = renderText({ style: style({ modifiers: { paper: { tilt: 2 } } }), text: LETTER, fonts })
    .pages[0]!;
  t.not(tilted.sheet.tilt, 0, 'paper: a tilt setting tilts the sheet');
  const flat = renderText({
    style: style({ modifiers: { paper: { enabled: false, tilt: 2, shadow: 1, scanner: true } } }),
    text: LETTER,
    fonts,
  });
  t.equal(flat.pages[0]!.sheet.tilt, 0, 'paper: and its off switch straightens it');
  const flatSvg = pageToSvg(flat, flat.pages[0]!);
  for (const id of ['grain', 'shadow', 'scan'])
    t.notOk(flatSvg.includes(`id="${id}"`), `paper off: no ${id}`);
  const dressed = renderText({
    style: style({ modifiers: { paper: { texture: 0.5, shadow: 0.5, scanner: true } } }),
    text: LETTER,
    fonts,
  });
  const dressedSvg = pageToSvg(dressed, dressed.pages[0]!);
  for (const id of ['grain', 'shadow', 'scan']) t.ok(dressedSvg.includes(`id="${id}"`), `paper: ${id} drawn`);
  t.equal(pageToSvg(dressed, dressed.pages[0]!), dressedSvg, 'the grain is the same for the same seed');
});

t.test(
  "OpenType alternates: a letter takes the font's other drawings, never the same one twice running",
  async (t) => {
    const { loadFont, shape } = await import('../../src/render/fonts.ts');
    const caveat = loadFont(bundledFontSource('caveat'));
    const usual = (ch: string) => shape(caveat, ch, false)[0]!.gid;
    const a = usual('a');
    t.ok(caveat.alternates(0x61, a).length >= 2, 'Caveat has alternates of a');
    t.same(caveat.alternates(0x61, usual('b') + 100_000), [], 'only for a drawing of that letter');
    const text = 'banana anagram aardvark alpaca '.repeat(6);
    const drawingsOfA = (alternates: boolean) => {
      const list = renderText({ style: style({ modifiers: { letters: { alternates } } }), text, fonts });
      const glyphs = list.pages
        .flatMap((p) => p.items.filter((i) => i.kind === 'glyph'))
        .map((g) => list.glyphs[(g as { ref: string }).ref]!.gid);
      const members = new Set([a, ...caveat.alternates(0x61, a).map((x) => x.gid)]);
      return glyphs.filter((gid) => members.has(gid));
    };
    const on = drawingsOfA(true);
    t.equal(on.length, [...text].filter((c) => c === 'a').length, 'every a is one of its drawings');
    t.equal(new Set(on).size, 3, 'all three drawings are used');
    t.ok(
      on.every((gid, i) => i === 0 || gid !== on[i - 1]),
      'no two a in a row share a drawing',
    );
    const off = drawingsOfA(false);
    const shaped = shape(caveat, text, false)
      .map((g) => g.gid)
      .filter((gid) => on.includes(gid) || gid === a);
    t.same(off, shaped, "with alternates off, the font's own choice stands");
  },
);

t.test(
  'fallback: a character the font lacks comes from the next hand; none at all is an error',
  async (t) => {
    const list = renderText({ style: style(), text: 'Hello नमस्ते 안녕 مرحبا', fonts });
    const used = new Set(Object.values(list.glyphs).map((g) => g.font));
    for (const slug of ['caveat', 'kalam', 'nanum-pen-script', 'aref-ruqaa'])
      t.ok(used.has(bundledFontId(slug)), `${slug} used`);
    const err = t.throws(() => renderText({ style: style(), text: 'Amharic ሰላም', fonts })) as RenderError;
    t.equal(err.code, 'UNSUPPORTED_CHARACTERS');
    t.match(err.message, /U\+1230 "ሰ"/);
  },
);

t.test('shaping: Arabic joins, Devanagari reorders, RTL paragraphs run from the right', async (t) => {
  const glyphsOf = (text: string) =>
    renderText({ style: style({ modifiers: OFF }), text, fonts })
      .pages[0]!.items.filter((i) => i.kind === 'glyph')
      .map((g) => (g as { ref: string }).ref);
  const isolated = glyphsOf('ب');
  const joined = glyphsOf('بب');
  t.equal(
    joined.filter((r) => !isolated.includes(r)).length,
    2,
    'both joined behs take forms other than the isolated one (the dots are the same mark)',
  );
  t.ok(glyphsOf('कि').length >= 1, 'i-matra cluster shapes');
  const rtl = renderText({ style: style({ modifiers: OFF }), text: 'مرحبا بالعالم', fonts }).pages[0]!;
  const xs = rtl.items.filter((i) => i.kind === 'glyph').map((g) => (g as { m: number[] }).m[4]!);
  t.ok(Math.max(...xs) > rtl.width / 2, 'right-aligned');
  t.equal(rtl.lines[0]?.text, 'مرحبا بالعالم', 'the searchable text is the logical text');
});

t.test('pages: sizes, orientation, margins, breaking and the page cap', async (t) => {
  t.same(pageSizePt({ pageSize: 'A4', orientation: 'portrait' }), { width: 210 * MM, height: 297 * MM });
  t.same(pageSizePt({ pageSize: 'A5', orientation: 'landscape' }), { width: 210 * MM, height: 148 * MM });
  const custom = pageSizePt({
    pageSize: { name: 'card', width: 400, height: 300, unit: 'px' },
    orientation: 'portrait',
  });
  t.same(
    [Math.round(custom.width), Math.round(custom.height)],
    [300, 225],
    'a custom size as given (px at 96 per inch)',
  );
  const turned = pageSizePt({
    pageSize: { name: 'card', width: 400, height: 300, unit: 'px' },
    orientation: 'landscape',
  });
  t.same([Math.round(turned.width), Math.round(turned.height)], [225, 300], 'and landscape swaps it');
  const long = `${LETTER} `.repeat(60);
  const list = renderText({ style: style({ pageSize: 'A5' }), text: long, fonts });
  t.ok(list.pages.length > 1, `${list.pages.length} pages`);
  const bottom = list.pages[0]!.height - 20 * MM;
  t.ok(
    list.pages.every((p) => p.lines.every((l) => l.y <= bottom + 0.01)),
    'no line below the bottom margin',
  );
  const err = t.throws(() =>
    renderText({ style: style({ pageSize: 'A5' }), text: long, fonts, limits: { maxPages: 2 } }),
  ) as RenderError;
  t.equal(err.code, 'TOO_MANY_PAGES');
});

t.test('lined paper: every baseline sits on a rule', async (t) => {
  const s = style({ paper: { type: 'lined', spacing: 9 }, modifiers: { lines: { enabled: false } } });
  const page = renderText({ style: s, text: `${LETTER}\n\n${LETTER}`, fonts }).pages[0]!;
  const rules = new Set(
    page.items.filter((i) => i.kind === 'rule').map((r) => (r as { y1: number }).y1.toFixed(3)),
  );
  for (const l of page.lines) t.ok(rules.has(l.y.toFixed(3)), `baseline ${l.y.toFixed(1)} on a rule`);
});

t.test('writers: SVG escapes text and defines each outline once; PNG at 144 DPI', async (t) => {
  const list = renderText({ style: style(), text: 'a <b>&"c\' a a', fonts });
  const svg = pageToSvg(list, list.pages[0]!, { textLayer: true });
  t.notOk(svg.includes('<b>'), 'no user markup');
  t.match(svg, /a &#60;b&#62;&#38;&#34;c&#39; a a/);
  const defs = svg.match(/<path id=/g)?.length ?? 0;
  t.equal(
    defs,
    new Set(list.pages[0]!.items.filter((i) => i.kind === 'glyph').map((g) => (g as { ref: string }).ref))
      .size,
    'one <path> per distinct glyph',
  );
  const png = writePng(list, list.pages[0]!, 144, { raster });
  t.same([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  t.equal(Buffer.from(png).readUInt32BE(16), Math.round((210 / 25.4) * 144), 'width at 144 DPI');
});

t.test('SVG: letter rotation and size jitter survive into the markup', async (t) => {
  const list = renderText({ style: style(), text: LETTER, fonts });
  const matrices = [...pageToSvg(list, list.pages[0]!).matchAll(/<use [^>]*matrix\(([^)]*)\)/g)].map((m) =>
    m[1]!.split(' ').map(Number),
  );
  t.ok(matrices.length > 50);
  t.ok(
    matrices.filter((m) => m[1] !== 0).length > matrices.length * 0.9,
    'nearly every letter is turned a little',
  );
  t.ok(new Set(matrices.map((m) => m[0])).size > 10, 'and scaled a little');
});

t.test(
  'PNG: reduced outlines, blended grain and our encoder give what resvg draws from the SVG',
  async (t) => {
    const { deflateSync } = await import('node:zlib');
    const { PNG } = await import('pngjs');
    const { Resvg } = await import('@resvg/resvg-js');
    const size = { name: 'card', width: 400, height: 240, unit: 'px' };
    // 2 x 2 image pixels of difference per channel, counted: how many differ by more than 10 % and 25 %.
    const compare = (a: Uint8Array, b: Uint8Array) => {
      let [over10, over25, sum] = [0, 0, 0];
      for (let i = 0; i < a.length; i += 4) {
        const d = Math.max(
          Math.abs(a[i]! - b[i]!),
          Math.abs(a[i + 1]! - b[i + 1]!),
          Math.abs(a[i + 2]! - b[i + 2]!),
        );
        if (d > 25) over10++;
        if (d > 64) over25++;
        sum += d;
      }
      return { over10: over10 / (a.length / 4), over25: over25 / (a.length / 4), mean: sum / (a.length / 4) };
    };
    for (const texture of [0, 1]) {
      const list = renderText({
        style: style({ fontSize: 14, pageSize: size, modifiers: { paper: { texture } } }),
        text: LETTER,
        fonts,
      });
      const page = list.pages[0]!;
      const png = PNG.sync.read(
        Buffer.from(writePng(list, page, 144, { raster, deflate: (b) => deflateSync(b, { level: 1 }) })),
      );
      const svg = new Resvg(pageToSvg(list, page), { fitTo: { mode: 'width', value: png.width } }).render();
      t.same([png.width, png.height], [svg.width, svg.height], `texture ${texture}: same size`);
      const diff = compare(png.data, svg.pixels);
      t.ok(
        diff.over10 < 0.01,
        `texture ${texture}: under 1 % of pixels differ by more than 10 % (${(diff.over10 * 100).toFixed(2)} %)`,
      );
      t.ok(
        diff.over25 < 0.001,
        `texture ${texture}: under 0.1 % differ by more than 25 % (${(diff.over25 * 100).toFixed(3)} %)`,
      );
      t.ok(diff.mean < 1, `texture ${texture}: mean difference under one level (${diff.mean.toFixed(2)})`);
    }
    // The grain is there: a blank sheet with grain is not one colour, and the same seed gives the same grain.
    const blank = (seed: number) => {
      const list = renderText({
        style: style({ pageSize: size, modifiers: { seed, paper: { texture: 1 } } }),
        text: '',
        fonts,
      });
      return PNG.sync.read(Buffer.from(writePng(list, list.pages[0]!, 144, { raster }))).data;
    };
    t.ok(new Set(blank(1)).size > 20, 'grain varies the paper');
    t.ok(Buffer.compare(blank(1), blank(1)) === 0, 'the same seed, the same grain');
    t.ok(Buffer.compare(blank(1), blank(2)) !== 0, 'another seed, other grain');
  },
);

t.test('PNG encoder: decodes to the pixels it was given', async (t) => {
  const { PNG } = await import('pngjs');
  const { deflateSync } = await import('node:zlib');
  const { encodePng } = await import('../../src/render/png-encode.ts');
  const rgba = new Uint8Array(37 * 11 * 4).map((_, i) => (i * 7919) % 251);
  for (const deflate of [undefined, (b: Uint8Array) => deflateSync(b, { level: 1 })]) {
    const back = PNG.sync.read(Buffer.from(encodePng(37, 11, rgba, deflate)));
    t.same([back.width, back.height], [37, 11]);
    t.ok(Buffer.compare(back.data, Buffer.from(rgba)) === 0, deflate ? 'zlib' : 'stored blocks');
  }
});

t.test("shaping applies the font's kerning and ligatures", async (t) => {
  const { loadFont, shape } = await import('../../src/render/fonts.ts');
  const caveat = loadFont(bundledFontSource('caveat'));
  t.ok(
    shape(caveat, 'AV', false)[0]!.advance < shape(caveat, 'A', false)[0]!.advance,
    'A before V is kerned closer',
  );
  t.equal(shape(caveat, 'fi', false).length, 1, 'f and i join in one ligature glyph');
  t.equal(shape(caveat, 'ffi', false).length, 1, 'ffi too');
  const list = renderText({ style: style(), text: 'find', fonts });
  t.equal(
    list.pages[0]!.items.filter((i) => i.kind === 'glyph').length,
    3,
    'a rendered "find" has three glyphs',
  );
  t.equal(list.pages[0]!.lines[0]!.text, 'find', 'and its searchable text is still four letters');
});
