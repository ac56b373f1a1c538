// The engine's PDFs as other programs read them: qpdf finds them valid, poppler extracts their
// text and draws their images (the engine itself: test/unit/render.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { renderText } from '../../src/render/page/document.ts';
import { pageToSvg } from '../../src/render/write/svg.ts';
import { writePng } from '../../src/render/index.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { styleOf as style } from '../helpers/specs.ts';

const fonts = bundledChain(bundledFontSource('caveat'));
const DIR = mkdtempSync(join(tmpdir(), 'scriptorium-pdf-'));
t.teardown(() => rmSync(DIR, { recursive: true, force: true }));

/**
 * Checks `pdf` with qpdf and draws its first page with poppler at `dpi`: the page's PNG bytes,
 * or null when the tools are missing (allowed outside CI only).
 */
function readers(t: Test, name: string, pdf: Uint8Array, dpi: number): Buffer | null {
  const file = join(DIR, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    t.match(
      execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }),
      /No syntax or stream encoding errors/,
      `${name}: qpdf is content`,
    );
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', file, join(DIR, 'page')]);
    return readFileSync(join(DIR, 'page.png'));
  } catch (err) {
    t.ok(
      !process.env.CI && (err as NodeJS.ErrnoException).code === 'ENOENT',
      `${name}: qpdf and poppler are installed in CI`,
    );
    return null;
  }
}
const LETTER =
  'Dear friend, thank you for the lovely afternoon. The garden looked wonderful and the roses by the gate were in full bloom.';

t.test('PDF: outlines once, text extractable, valid, deterministic, size capped while writing', async (t) => {
  const { deflateSync } = await import('node:zlib');
  const { displayListToPdf } = await import('../../src/render/write/pdf.ts');
  const text = `${LETTER} ${LETTER} ${LETTER} ${LETTER}\nSecond paragraph: nouns, verbs & <markup>.\nमेरा नाम  مرحبا`;
  const list = renderText({ style: style({ paper: { type: 'lined' } }), text, fonts });
  const opts = { deflate: (b: Uint8Array) => deflateSync(b), createdAt: '2026-11-22T10:00:00Z' };
  const pdf = displayListToPdf(list, opts);
  t.same(
    displayListToPdf(renderText({ style: style({ paper: { type: 'lined' } }), text, fonts }), opts),
    pdf,
    'same input, same bytes',
  );
  const raw = Buffer.from(displayListToPdf(list, { createdAt: opts.createdAt })).toString('latin1');
  const instances = list.pages.flatMap((p) => p.items.filter((i) => i.kind === 'glyph')).length;
  t.equal(raw.match(/\/Subtype \/CIDFontType0C/g)?.length, 1, 'one font program for the drawings');
  t.notMatch(raw, /\/Subtype \/Form/, 'no drawing as a form of its own');
  const placed = [...raw.matchAll(/ Tm <([0-9a-f]{4})> Tj/g)].map((m) => m[1]);
  t.equal(placed.length, instances, 'placed once per instance');
  t.equal(new Set(placed).size, Object.keys(list.glyphs).length, 'one glyph per distinct drawing');
  t.ok(
    Object.keys(list.glyphs).length < instances,
    `and reused (${Object.keys(list.glyphs).length} drawings for ${instances} letters)`,
  );

  const file = join(DIR, 'text.pdf');
  writeFileSync(file, pdf);
  const has = (cmd: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`]);
      return true;
    } catch {
      return false;
    }
  };
  if (!has('qpdf') || !has('pdftotext')) {
    t.ok(!process.env.CI, 'qpdf and pdftotext are installed in CI');
    return;
  }
  t.match(
    execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }),
    /No syntax or stream encoding errors/,
  );
  const extracted = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );
  for (const phrase of [
    'Dear friend, thank you for the lovely afternoon.',
    'nouns, verbs & <markup>.',
    'मेरा नाम',
  ])
    t.ok(extracted.includes(phrase), `"${phrase}" is searchable`);
  // The drawn glyphs give no text of their own (an empty /ActualText): only the text's characters
  // (and the marks poppler sets around a right-to-left run).
  const strays = [...extracted].filter((ch) => !/[\s\u202a-\u202e]/.test(ch) && !text.includes(ch));
  t.same(strays, [], 'nothing extracted but the text');
  // MuPDF does not honour the empty /ActualText: the drawings read as spaces there, never as
  // replacement characters, and the text layer as the text.
  if (has('mutool')) {
    const mu = execFileSync('mutool', ['draw', '-q', '-F', 'txt', '-o', '-', file], { encoding: 'utf8' });
    t.notMatch(mu, /\ufffd/, 'MuPDF: no replacement character for a drawing');
    t.ok(
      mu.replace(/\s+/g, ' ').includes('Dear friend, thank you for the lovely afternoon.'),
      'MuPDF: the text layer read',
    );
  } else t.ok(!process.env.CI, 'mutool is installed in CI');
  t.match(
    execFileSync('pdffonts', [file], { encoding: 'utf8' }),
    /ScriptoriumHand\s+CID Type 0C\s+Identity-H\s+yes\s+yes/,
    'the drawings font embedded, Identity-H',
  );

  const { RenderError: E } = await import('../../src/render/text/text-layout.ts');
  t.throws(
    () => displayListToPdf(list, { ...opts, maxBytes: 10_000 }),
    E,
    'the output limit stops the writer',
  );
});

t.test('a background image asset is drawn in SVG, PNG and PDF', async (t) => {
  const { png: makePng } = await import('../helpers/images.ts');
  const { displayListToPdf } = await import('../../src/render/write/pdf.ts');
  const assetId = 'asset_0000000000000000000001';
  const list = renderText({
    style: style({ background: { assetId }, pageSize: { name: 'c', width: 200, height: 100, unit: 'px' } }),
    text: 'on a picture',
    fonts,
  });
  const assets = { [assetId]: { type: 'image/png' as const, bytes: makePng(20, 10) } };
  const svg = pageToSvg(list, list.pages[0]!, { assets });
  t.match(svg, /<image [^>]*href="data:image\/png;base64,iVBORw0KGgo/, 'embedded as a data URI');
  t.ok(svg.indexOf('<image') < svg.indexOf('<use'), 'under the writing');
  t.same([...writePng(list, list.pages[0]!, 72, { raster, assets }).subarray(1, 4)], [0x50, 0x4e, 0x47]);
  t.throws(() => pageToSvg(list, list.pages[0]!), { code: 'MISSING_ASSET' });
  t.throws(() => displayListToPdf(list), { code: 'MISSING_ASSET' });
  const { jpeg, progressiveJpeg } = await import('../helpers/images.ts');
  for (const [name, asset] of [
    ['png', assets[assetId]],
    ['jpeg', { type: 'image/jpeg' as const, bytes: jpeg }],
    ['progressive jpeg', { type: 'image/jpeg' as const, bytes: progressiveJpeg }],
  ] as const) {
    const pdf = displayListToPdf(list, { assets: { [assetId]: asset } });
    const raw = Buffer.from(pdf).toString('latin1');
    t.match(raw, /\/Subtype \/Image \/Width (20|64) /, `${name}: an image XObject`);
    const page = readers(t, name, pdf, 36);
    if (page) t.ok(page.length > 100, `${name}: poppler draws it`);
  }
  const alpha = {
    type: 'image/png' as const,
    bytes: readFileSync(new URL('../fixtures/alpha-40x24.png', import.meta.url)),
  };
  t.throws(
    () => displayListToPdf(list, { assets: { [assetId]: alpha } }),
    { code: 'UNSUPPORTED_IMAGE' },
    'without a decoder, a PNG with transparency is refused by name, not dropped',
  );
});

t.test('PDF: PNGs with transparency, a palette, 16 bits or interlacing are decoded and drawn', async (t) => {
  const { deflateSync } = await import('node:zlib');
  const { PNG } = await import('pngjs');
  const { displayListToPdf } = await import('../../src/render/write/pdf.ts');
  const { decodePng } = await import('../../workers/png-decode.ts');
  const assetId = 'asset_0000000000000000000002';
  const list = renderText({
    style: style({
      background: { assetId },
      pageSize: { name: 'c', width: 200, height: 120, unit: 'px' },
      modifiers: { paper: { enabled: false } },
    }),
    text: '',
    fonts,
  });
  // The page at 72 DPI is 150 x 90 px and the 40 x 24 image covers it: sample the middle and a corner.
  type Image = InstanceType<typeof PNG>;
  const at = (png: Image, x: number, y: number) => [
    ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
  ];
  const cases = {
    'alpha-40x24.png': (p: Image) => {
      t.ok(
        at(p, 75, 45)[0]! > 200 && at(p, 75, 45)[2]! < 60,
        `alpha: opaque red in the middle (${at(p, 75, 45)})`,
      );
      t.ok(
        at(p, 1, 1).every((v) => v > 220),
        `alpha: the paper shows through the transparent corner (${at(p, 1, 1)})`,
      );
    },
    'palette-40x24.png': (p: Image) =>
      t.ok(
        at(p, 75, 1)[0]! > 150 && at(p, 75, 88)[2]! > 150,
        `palette: red at the top, blue at the bottom (${at(p, 75, 1)} / ${at(p, 75, 88)})`,
      ),
    'interlaced16-40x24.png': (p: Image) =>
      t.ok(
        at(p, 75, 1)[0]! > 200 && at(p, 75, 88)[0]! < 50,
        `16-bit interlaced: white at the top, black at the bottom (${at(p, 75, 1)} / ${at(p, 75, 88)})`,
      ),
  };
  for (const [name, check] of Object.entries(cases)) {
    const bytes = readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
    const pdf = displayListToPdf(list, {
      assets: { [assetId]: { type: 'image/png', bytes } },
      decodePng,
      deflate: (b) => deflateSync(b),
    });
    const raw = Buffer.from(pdf).toString('latin1');
    t.match(
      raw,
      /\/Subtype \/Image \/Width 40 \/Height 24 \/ColorSpace \/DeviceRGB/,
      `${name}: decoded to an RGB image`,
    );
    t.equal(
      /\/SMask \d+ 0 R/.test(raw),
      name.startsWith('alpha'),
      `${name}: a soft mask exactly when there is transparency`,
    );
    const page = readers(t, name, pdf, 72);
    if (page) check(PNG.sync.read(page));
  }
});
