// A filled sample sheet read back from a phone-like photo: the sheet drawn, each box written in
// (with a typeface for now: the hand stands in for a person), rasterised, then degraded as a phone
// would (3° of rotation, perspective, a page on a table, uneven light, noise, JPEG); the reader
// finds the marks, reads the page's code and cuts out each box's ink, which is compared with the
// clean page's ink of the same box. A picture that is no sheet, and a sheet whose code is
// damaged, are refused saying why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import cvModule from '@techstark/opencv-js';
import jpeg from 'jpeg-js';
import t from 'tap';
import {
  type GrayImage,
  readSheetScan,
  SCAN_PX_PER_MM,
  SheetScanError,
  sheetLayout,
  writeSheet,
} from '../../src/render/index.ts';

/** The overlap floor of a recovered box against its source, after both are normalised (docs/sample-sheet.md). */
const OVERLAP_FLOOR = 0.7;

const dir = mkdtempSync(join(tmpdir(), 'scriptorium-scan-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const PT_PER_MM = 72 / 25.4;
const layout = sheetLayout('basic', 'a4');

/** Page 1 of the sheet with every box written in, as grey pixels at the reader's scale. */
async function filledPage(opts: { blankCode?: boolean } = {}): Promise<GrayImage> {
  const doc = await PDFDocument.load(
    await writeSheet(layout, { createdAt: new Date('2026-11-27T00:00:00Z') }),
  );
  const font = await doc.embedFont(StandardFonts.HelveticaOblique);
  const page = doc.getPage(0);
  const H = layout.paper.height;
  // Sized so that a lowercase letter fills the x-height guide (Helvetica's x-height is 0.523 em).
  const size = ((layout.boxes[0]!.baseline - layout.boxes[0]!.xHeight) / 0.523) * PT_PER_MM;
  for (const [i, b] of layout.boxes.filter((b) => b.page === 1).entries()) {
    const width = font.widthOfTextAtSize(b.char, size);
    page.drawText(b.char, {
      x: (b.x + b.width / 2) * PT_PER_MM - width / 2 + (i % 3) - 1,
      y: (H - b.y - b.baseline) * PT_PER_MM,
      size,
      font,
      color: rgb(0.05, 0.08, 0.3),
    });
  }
  if (opts.blankCode) {
    const c = layout.codeCells;
    page.drawRectangle({
      x: c.x * PT_PER_MM,
      y: (H - c.y - c.size) * PT_PER_MM,
      width: c.size * c.count * PT_PER_MM,
      height: c.size * PT_PER_MM,
      color: rgb(1, 1, 1),
    });
  }
  const pdf = join(dir, 'filled.pdf');
  writeFileSync(pdf, await doc.save());
  const pgm = execFileSync(
    'pdftoppm',
    ['-r', String(SCAN_PX_PER_MM * 25.4), '-gray', '-f', '1', '-l', '1', pdf],
    { maxBuffer: 64 << 20 },
  );
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  return {
    width: Number(head[1]),
    height: Number(head[2]),
    data: new Uint8Array(pgm.subarray(head[0].length)),
  };
}

/** OpenCV, ready (its module is a thenable, so it is never what a promise resolves with). */
async function opencv() {
  const cv = cvModule as unknown as typeof cvModule & { onRuntimeInitialized?: () => void };
  if (!cv.Mat) await new Promise<void>((r) => (cv.onRuntimeInitialized = r));
  return { cv };
}

/** The page as a phone photographs it: on a table, turned 3°, in perspective, lit from one side, noisy, JPEG. */
async function photographed(page: GrayImage): Promise<GrayImage> {
  const { cv } = await opencv();
  const src = cv.matFromArray(page.height, page.width, cv.CV_8UC1, page.data);
  const W = Math.round(page.width * 1.25);
  const Hh = Math.round(page.height * 1.2);
  const turn = (3 * Math.PI) / 180;
  const [cx, cy] = [W / 2, Hh / 2];
  const corner = (x: number, y: number, squeeze: number) => {
    const [dx, dy] = [x - page.width / 2, y - page.height / 2];
    return [
      cx + (dx * Math.cos(turn) - dy * Math.sin(turn)) * squeeze,
      cy + dx * Math.sin(turn) + dy * Math.cos(turn),
    ];
  };
  // The top of the page farther from the lens than its bottom: narrower by 6 %.
  const to = [
    ...corner(0, 0, 0.94),
    ...corner(page.width, 0, 0.94),
    ...corner(0, page.height, 1),
    ...corner(page.width, page.height, 1),
  ];
  const from = [0, 0, page.width, 0, 0, page.height, page.width, page.height];
  const m = cv.getPerspectiveTransform(
    cv.matFromArray(4, 1, cv.CV_32FC2, from),
    cv.matFromArray(4, 1, cv.CV_32FC2, to),
  );
  const out = new cv.Mat();
  cv.warpPerspective(src, out, m, new cv.Size(W, Hh), cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(95));
  const data = new Uint8Array(out.data);
  src.delete();
  out.delete();
  m.delete();
  // Light from the left: the right of the picture at 55 % of its brightness; noise of σ ≈ 6.
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const rgba = new Uint8Array(W * Hh * 4);
  for (let y = 0; y < Hh; y++)
    for (let x = 0; x < W; x++) {
      const light = 1 - 0.45 * (x / W) * (0.6 + 0.4 * (y / Hh));
      const noise = (random() + random() + random() - 1.5) * 12;
      const v = Math.max(0, Math.min(255, data[y * W + x]! * light + noise));
      rgba.set([v, v, v, 255], (y * W + x) * 4);
    }
  const jpg = jpeg.encode({ data: rgba, width: W, height: Hh }, 75).data;
  writeFileSync(join(dir, 'photo.jpg'), jpg);
  const decoded = jpeg.decode(jpg, { useTArray: true });
  const gray = new Uint8Array(W * Hh);
  for (let i = 0; i < gray.length; i++) gray[i] = decoded.data[i * 4]!;
  return { width: W, height: Hh, data: gray };
}

/** Ink (below 140) of a region of a grey page, cropped to its ink and scaled to 32 x 32. */
function normalised(img: GrayImage, rect?: { x: number; y: number; w: number; h: number }): Uint8Array {
  const r = rect ?? { x: 0, y: 0, w: img.width, h: img.height };
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (let y = r.y; y < r.y + r.h; y++)
    for (let x = r.x; x < r.x + r.w; x++)
      if (img.data[y * img.width + x]! < 140)
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const out = new Uint8Array(32 * 32);
  if (x1 < 0) return out;
  for (let j = 0; j < 32; j++)
    for (let i = 0; i < 32; i++) {
      const x = Math.floor(x0 + ((i + 0.5) * (x1 - x0 + 1)) / 32);
      const y = Math.floor(y0 + ((j + 0.5) * (y1 - y0 + 1)) / 32);
      out[j * 32 + i] = img.data[y * img.width + x]! < 140 ? 1 : 0;
    }
  return out;
}

const overlap = (a: Uint8Array, b: Uint8Array) => {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i]! & b[i]!;
    either += a[i]! | b[i]!;
  }
  return either ? both / either : 0;
};

t.test(
  'a phone photo of a filled page: the marks found, the code read, every box cut out as written',
  async (t) => {
    const clean = await filledPage();
    const scan = await readSheetScan(await photographed(clean));
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

t.test('a picture that is no sheet, and a sheet whose code is gone, are refused saying why', async (t) => {
  const blank: GrayImage = { width: 1200, height: 1600, data: new Uint8Array(1200 * 1600).fill(200) };
  const none = await readSheetScan(blank).catch((e: unknown) => e);
  t.ok(none instanceof SheetScanError, 'a grey picture');
  t.match(none, { reason: 'no-marks', message: /corner squares/ });
  const coded = await readSheetScan(await photographed(await filledPage({ blankCode: true }))).catch(
    (e: unknown) => e,
  );
  t.match(coded, { name: 'SheetScanError', reason: 'no-code', message: /code could not be read/ });
});
