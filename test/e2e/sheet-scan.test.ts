// A filled sample sheet read back from a phone-like photo: the sheet drawn, each box written in
// with a bundled hand through the engine, rasterised, then degraded as a phone would (3° of
// rotation, perspective, a page on a table, uneven light, noise, JPEG); the reader finds the
// marks, reads the page's code and cuts out each box's ink, which is compared with the clean
// page's ink of the same box. A picture that is no sheet, and a sheet whose code is damaged, are
// refused saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  type GrayImage,
  readSheetScan,
  SCAN_PX_PER_MM,
  SheetScanError,
  sheetLayout,
} from '../../src/foundry/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import {
  blankSheet,
  filledPage as filled,
  normalised,
  overlap,
  photographed,
} from '../helpers/sheet-photo.ts';

/** The overlap floor of a recovered box against its source, after both are normalised (docs/sample-sheet.md). */
const OVERLAP_FLOOR = 0.7;

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-scan-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const layout = sheetLayout('basic', 'a4');
const [blank] = await blankSheet(layout, 1);

/** Page 1 of the sheet with every box written in Kalam, as grey pixels at the reader's scale. */
async function filledPage(opts: { blankCode?: boolean } = {}): Promise<GrayImage> {
  const page = filled(blank!, layout, 1, bundledFontSource('kalam'));
  if (opts.blankCode) {
    const c = layout.codeCells;
    const px = SCAN_PX_PER_MM;
    for (let y = Math.floor(c.y * px); y < Math.ceil((c.y + c.size) * px); y++)
      page.data.fill(
        255,
        y * page.width + Math.floor(c.x * px),
        y * page.width + Math.ceil((c.x + c.size * c.count) * px),
      );
  }
  return page;
}

t.test(
  'a phone photo of a filled page: the marks found, the code read, every box cut out as written',
  async (t) => {
    const clean = await filledPage();
    const scan = await readSheetScan((await photographed(clean)).image);
    t.same(scan.code, { version: 1, set: 'basic', paper: 'a4', page: 1, pages: 2 }, "the page's code");
    const boxes = layout.boxes.filter((b) => b.page === 1);
    t.equal(scan.boxes.length, boxes.length, 'every box of the page');
    const px = SCAN_PX_PER_MM;
    const scores = scan.boxes.map((b) => {
      const source = normalised(clean, {
        x: Math.round(b.x * px),
        y: Math.round(b.y * px),
        w: b.ink.width,
        h: b.ink.height,
      });
      return { at: `${b.char} ${b.variant}`, score: overlap(source, normalised(b.ink)) };
    });
    const worst = scores.reduce((a, b) => (b.score < a.score ? b : a));
    const mean = scores.reduce((s, b) => s + b.score, 0) / scores.length;
    t.ok(
      scores.every((s) => s.score >= OVERLAP_FLOOR),
      `every box at least ${OVERLAP_FLOOR} (mean ${mean.toFixed(3)}, lowest ${worst.score.toFixed(3)} for ${worst.at})`,
    );
    t.ok(
      scan.boxes.every((b) => b.inkPixels > 0),
      'ink in every box',
    );
  },
);

/** A picture turned by 180° or a quarter clockwise. */
function turned(image: GrayImage, how: 'upside down' | 'a quarter'): GrayImage {
  const { width: w, height: h, data } = image;
  if (how === 'upside down') return { width: w, height: h, data: data.slice().reverse() };
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[x * h + (h - 1 - y)] = data[y * w + x]!;
  return { width: h, height: w, data: out };
}

t.test('a page photographed upside down or sideways is turned and read', async (t) => {
  const clean = await filledPage();
  const { image } = await photographed(clean);
  const upright = await readSheetScan(image);
  for (const how of ['upside down', 'a quarter'] as const) {
    const scan = await readSheetScan(turned(image, how));
    t.same(scan.code, upright.code, `${how}: the same page's code`);
    const px = SCAN_PX_PER_MM;
    const worst = Math.min(
      ...scan.boxes.map((b) =>
        overlap(
          normalised(clean, {
            x: Math.round(b.x * px),
            y: Math.round(b.y * px),
            w: b.ink.width,
            h: b.ink.height,
          }),
          normalised(b.ink),
        ),
      ),
    );
    t.ok(worst >= OVERLAP_FLOOR, `${how}: every box as written (lowest ${worst.toFixed(3)})`);
  }
});

t.test('a picture that is no sheet, and a sheet whose code is gone, are refused saying why', async (t) => {
  const blank: GrayImage = { width: 1200, height: 1600, data: new Uint8Array(1200 * 1600).fill(200) };
  const none = await readSheetScan(blank).catch((e: unknown) => e);
  t.ok(none instanceof SheetScanError, 'a grey picture');
  t.match(none, { reason: 'no-marks', message: /corner squares/ });
  const coded = await readSheetScan((await photographed(await filledPage({ blankCode: true }))).image).catch(
    (e: unknown) => e,
  );
  t.match(coded, { name: 'SheetScanError', reason: 'no-code', message: /code could not be read/ });
});
