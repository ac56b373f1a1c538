// One contract for both renderer adapters (the piscina pool, in process): a request becomes
// the bytes of its output; a refusal of the input and a cancel are RenderTaskErrors; the same
// request gives the same bytes.
import type { Test } from 'tap';
import { type Renderer, type RenderRequest, RenderTaskError } from '../../src/app/ports/renderer.ts';
import { jpeg, palettePng, png } from '../helpers/images.ts';
import { fontSampleSpec } from '../../src/domain/render-spec.ts';
import { newId } from '../../src/lib/ids.ts';
import { sheetLayout } from '../../src/foundry/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';
import { textSpec } from '../helpers/specs.ts';

export type RendererFactory = () => Promise<Renderer>;

const request = (
  output: RenderRequest['output'],
  text: string,
  limits: Partial<RenderRequest['limits']> = {},
): RenderRequest => ({
  output,
  spec: textSpec({}, text),
  fonts: {},
  images: {},
  createdAt: '2026-11-23T00:00:00Z',
  limits: { maxPages: 200, maxBytes: 55_000_000, maxLines: 200, previewPages: 1, previewDpi: 48, ...limits },
  jobId: 'gen_contract',
});

const ascii = (b: Uint8Array, n: number) => Buffer.from(b.subarray(0, n)).toString('latin1');

export function rendererContract(t: Test, name: string, make: RendererFactory): void {
  t.test(`${name}: each output comes back as its bytes`, async (t) => {
    const r = await make();
    t.teardown(() => r.close());
    t.ok(r.threads >= 1, 'at least one thread');
    const pdf = await r.run(request('pdf', 'A letter, written by hand.'));
    t.equal(pdf.pages, 1);
    t.equal(ascii(pdf.bytes, 5), '%PDF-');
    const svg = await r.run(request('svg', 'A caption.'));
    t.match(ascii(svg.bytes, 200), /<svg/);
    const png = await r.run(request('png', 'A caption.'));
    t.equal(ascii(png.bytes, 8), '\x89PNG\r\n\x1a\n');
    const preview = await r.run(request('preview', 'A preview.'));
    t.match(
      JSON.parse(Buffer.from(preview.bytes).toString()),
      { id: 'gen_contract' },
      'a preview is its JSON body',
    );
    t.equal(r.busy, 0, 'nothing is busy once all are answered');
  });

  t.test(`${name}: the same request gives the same bytes`, async (t) => {
    const r = await make();
    t.teardown(() => r.close());
    const [a, b] = await Promise.all([
      r.run(request('pdf', 'Twice the same.')),
      r.run(request('pdf', 'Twice the same.')),
    ]);
    t.same(Buffer.from(a.bytes), Buffer.from(b.bytes));
  });

  t.test(`${name}: what a thread wrote before does not change the next document`, async (t) => {
    const letter = request('pdf', 'A letter, written by hand: the quick brown fox jumps over the lazy dog.');
    const fresh = await make();
    t.teardown(() => fresh.close());
    const first = await fresh.run(letter);
    // Every thread of another renderer writes other words first (shaping meets their letters'
    // glyphs in another order), then the letter.
    const used = await make();
    t.teardown(() => used.close());
    const other = request('pdf', 'Hello there, my good friend. Grand river bridge, offer office staff.');
    await Promise.all(Array.from({ length: used.threads }, () => used.run(other)));
    const after = await used.run(letter);
    t.same(Buffer.from(after.bytes), Buffer.from(first.bytes), 'the same bytes');
  });

  t.test(
    `${name}: a refusal of the input is a render error with its code; the renderer carries on`,
    async (t) => {
      const r = await make();
      t.teardown(() => r.close());
      const err = await r
        .run(request('pdf', 'Many words here. '.repeat(400), { maxPages: 1 }))
        .catch((e: unknown) => e);
      t.ok(err instanceof RenderTaskError, String(err));
      t.equal((err as RenderTaskError).reason, 'render');
      t.match((err as RenderTaskError).message, /needs \d+ pages, the most allowed is 1/);
      t.ok((err as RenderTaskError).code, 'the engine names the rule');
      t.equal((await r.run(request('pdf', 'Next.'))).pages, 1, 'the next request is served');
    },
  );

  t.test(`${name}: a request whose signal is aborted is cancelled`, async (t) => {
    const r = await make();
    t.teardown(() => r.close());
    const ctl = new AbortController();
    const running = r.run(request('pdf', 'Never mind.'), { signal: ctl.signal });
    ctl.abort();
    const err = await running.catch((e: unknown) => e);
    t.ok(err instanceof RenderTaskError && err.reason === 'cancelled', String(err));
  });

  t.test(
    `${name}: photos of a filled sheet become a font; a picture of no sheet is refused saying why`,
    async (t) => {
      const r = await make();
      t.teardown(() => r.close());
      const [page1] = await sheetPhotos(sheetLayout('basic', 'a4'), bundledFontSource('kalam'), 1);
      const task = { name: 'Contract hand', scans: [page1!], createdAt: '2026-11-27T00:00:00Z' };
      const built = await r.buildHand(task);
      if (!built.ok) return t.fail(`refused: ${built.message}`);
      t.equal(ascii(built.bytes, 4), 'OTTO', 'an OpenType file with CFF outlines');
      t.equal(built.characters.length, 32, 'every character of the page: a-z and A-F');
      t.same(
        built.warnings.map((w) => w.reason),
        ['missing-page'],
        'the page not given is named',
      );
      const gray = png(400, 300);
      const refused = await r.buildHand({
        ...task,
        scans: [page1!, { type: 'image/png', bytes: gray, width: 400, height: 300 }],
      });
      t.match(refused, { ok: false, reason: 'no-marks', message: /^scan 2: .*corner squares/ });
    },
  );

  t.test(`${name}: an uploaded image is decoded in full: well-defined or why not`, async (t) => {
    const r = await make();
    t.teardown(() => r.close());
    const check = (type: 'image/png' | 'image/jpeg', bytes: Uint8Array, width: number, height: number) =>
      r.checkImage({ type, bytes, width, height });
    t.same(await check('image/png', png(40, 30), 40, 30), { ok: true }, 'an RGB PNG');
    t.same(
      await check('image/png', palettePng([0, 1, 1, 0, 1, 0, 0, 1], 2), 4, 2),
      { ok: true },
      'a palette PNG',
    );
    t.same(await check('image/jpeg', jpeg, 64, 48), { ok: true }, 'a JPEG');
    t.same(
      await check('image/png', palettePng([0, 1, 1, 0, 1, 0, 0, 9], 2), 4, 2),
      { ok: false, message: 'the PNG does not decode: index 9 not in palette' },
      'a palette index past the palette',
    );
    t.same(
      await check('image/png', palettePng([0, 1, 1, 0, 1, 0, 0, 1], 2, 5), 4, 2),
      { ok: false, message: 'the PNG does not decode: Unrecognised filter type - 5' },
      'a filter byte PNG does not define',
    );
    t.same(
      await check('image/jpeg', jpeg, 64, 47),
      { ok: false, message: 'the JPEG decodes to 64 x 48 px, its header says 64 x 47' },
      'a size other than declared',
    );
  });

  t.test(`${name}: a decode past its time limit is stopped and said so`, async (t) => {
    const r = await make();
    t.teardown(() => r.close());
    // 2828 x 2828 px (8 MP) of grey: a few hundred milliseconds to decode, far past 1 ms.
    const side = 2828;
    const big = png(side, side, { raw: Buffer.alloc(side * (1 + side * 3)) });
    const err = await r
      .checkImage({ type: 'image/png', bytes: big, width: side, height: side }, { timeoutMs: 1 })
      .catch((e: unknown) => e);
    t.ok(err instanceof RenderTaskError, 'rejects with RenderTaskError');
    t.equal((err as RenderTaskError).reason, 'timeout');
    t.same(
      await r.checkImage({ type: 'image/png', bytes: png(8, 8), width: 8, height: 8 }),
      { ok: true },
      'and the renderer goes on',
    );
  });

  t.test(
    `${name}: an uploaded font is parsed and writes its sample line; the file comes back whole`,
    async (t) => {
      const r = await make();
      t.teardown(() => r.close());
      const hand = bundledFontSource('indie-flower').bytes;
      const check = (bytes: Uint8Array) =>
        r.checkFont({
          bytes,
          page: fontSampleSpec(newId('font'), ''),
          dpi: 48,
          maxBytes: 8_000_000,
          createdAt: '2026-11-23T00:00:00Z',
        });
      const sent = new Uint8Array(hand);
      const ok = await check(sent);
      if (!ok.ok) throw new Error(ok.message);
      t.equal(ok.info.family, 'Indie Flower');
      t.equal(ok.line, 'Sphinx of black quartz, judge my vow: 0123456789');
      t.equal(ascii(ok.sample, 8), '\x89PNG\r\n\x1a\n', 'the sample line as a PNG');
      t.same(Buffer.from(ok.bytes), Buffer.from(hand), 'the file handed back, byte for byte');
      t.match(await check(new TextEncoder().encode('these bytes are not a font')), {
        ok: false,
        message: /^the file is not a usable font: no TrueType or OpenType signature/,
      });
      // A font whose cmap holds nothing it can write: the directory of a real font, its tables emptied.
      t.match(await check(hand.subarray(0, 12)), { ok: false, message: /not a usable font/ });
      r.forgetFont('font_neverloaded0000000000000');
      t.equal((await r.run(request('svg', 'Still writing.'))).pages, 1, 'and the renderer goes on');
    },
  );
}
