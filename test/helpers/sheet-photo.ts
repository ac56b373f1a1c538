// Filled sample sheets without a person: a sheet page rasterised (pdftoppm), its boxes written in
// with a bundled hand through the engine (each drawing of a letter a drawing of its own: the
// shapes modifier with a seed per box), then photographed as a phone would (3° of rotation,
// perspective, a page on a table, light from one side, noise, JPEG). And how a recovered drawing
// is compared with its source: both cut to their ink and scaled to 32 x 32, then overlapped.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import cvModule from '@techstark/opencv-js';
import jpeg from 'jpeg-js';
import { type FontSource, layout as layOut, resourcesOf, type RenderSpec } from '../../src/render/index.ts';
import {
  type GrayImage,
  SCAN_PX_PER_MM,
  type SheetBox,
  type SheetLayout,
  writeSheet,
} from '../../src/foundry/index.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { textSpec } from './specs.ts';

const PT_PER_MM = 72 / 25.4;

/** A grey image from pdftoppm's PGM output. */
export function pgm(bytes: Buffer): GrayImage {
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'))!;
  return {
    width: Number(head[1]),
    height: Number(head[2]),
    data: new Uint8Array(bytes.subarray(head[0].length)),
  };
}

/** Page `page` of a PDF file as grey pixels at the reader's scale. */
export function rasterPage(pdf: string, page: number): GrayImage {
  const out = execFileSync(
    'pdftoppm',
    ['-r', String(SCAN_PX_PER_MM * 25.4), '-gray', '-f', String(page), '-l', String(page), pdf],
    { maxBuffer: 64 << 20 },
  );
  return pgm(out);
}

/** The blank sheet's first `count` pages (all unless told) as grey pixels. */
export async function blankSheet(layout: SheetLayout, count = layout.pages): Promise<GrayImage[]> {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-sheet-'));
  try {
    const pdf = join(dir, `${layout.code}.pdf`);
    writeFileSync(pdf, await writeSheet(layout, { createdAt: new Date('2026-11-27T00:00:00Z') }));
    return Array.from({ length: count }, (_, i) => rasterPage(pdf, i + 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The first `count` pages of the sheet (all unless told) written in `hand` and photographed as a
 * phone would, as the JPEG files an upload sends (type, bytes and size). Made once per process,
 * and once per run of the suite where its runner gives the files a directory to share
 * (`TEST_RUN_DIR`, scripts/test.mjs): a sheet's photos take 2-4 s of CPU, and five files use the
 * same ones.
 */
type Photo = { type: 'image/jpeg'; bytes: Uint8Array; width: number; height: number };
const photos = new Map<string, Promise<Photo[]>>();
export function sheetPhotos(layout: SheetLayout, hand: FontSource, count = layout.pages): Promise<Photo[]> {
  const key = `${layout.code}-${hand.id}-${createHash('sha256').update(hand.bytes).digest('hex').slice(0, 12)}`;
  let made = photos.get(key);
  if (!made) {
    made = sharedInRun(`sheet-photos-${key}.json`, async () => {
      const blanks = await blankSheet(layout);
      const out: Photo[] = [];
      for (const [i, blank] of blanks.entries()) {
        const { jpeg, width, height } = await photograph(filledPage(blank, layout, i + 1, hand));
        out.push({ type: 'image/jpeg', bytes: jpeg, width, height });
      }
      return out;
    });
    photos.set(key, made);
  }
  return made.then((all) => all.slice(0, count));
}

/**
 * What `make` makes, read from the run's shared directory where another test file of the run made
 * it (else made, and left there for the others: written whole under a name of its own, then
 * renamed).
 */
async function sharedInRun(name: string, make: () => Promise<Photo[]>): Promise<Photo[]> {
  const dir = process.env.TEST_RUN_DIR;
  const file = dir && join(dir, name);
  if (file && existsSync(file))
    return (JSON.parse(readFileSync(file, 'utf8')) as (Photo & { bytes: string })[]).map((p) => ({
      ...p,
      bytes: new Uint8Array(Buffer.from(p.bytes, 'base64')),
    }));
  const made = await make();
  if (file) {
    const part = `${file}.${process.pid}`;
    writeFileSync(
      part,
      JSON.stringify(made.map((p) => ({ ...p, bytes: Buffer.from(p.bytes).toString('base64') }))),
    );
    renameSync(part, file);
  }
  return made;
}

/** The spec laid out with `hand` (its bytes given) and the bundled fonts it falls back to. */
function laidOut(spec: RenderSpec, hand: FontSource) {
  const others = resourcesOf(spec).fonts.filter((id) => id !== hand.id);
  return layOut(spec, { fonts: { ...fontBytes(others), [hand.id]: hand.bytes }, images: {} });
}

/** The seed of a box's drawing: each box a drawing of its own. */
const seedOf = (b: SheetBox) => 1000 + b.char.codePointAt(0)! * 7 + b.variant * 131;

/**
 * The hand's drawing of a box's character as the engine writes it (shapes modifier on, the box's
 * own seed), as SVG paths in the page's pixels: sized so that its x-height fills the box's guides,
 * its baseline on the box's baseline, centred in the box.
 */
function drawnBox(hand: FontSource, b: SheetBox, xHeightPerPt: number): string {
  const fontSize = ((b.baseline - b.xHeight) * PT_PER_MM) / xHeightPerPt;
  const spec = textSpec(
    {
      fontId: hand.id,
      fontSize,
      pageSize: { name: 'box', width: 80, height: 60, unit: 'mm' },
      margins: { top: 10, right: 10, bottom: 10, left: 10 },
      modifiers: {
        seed: seedOf(b),
        shapes: { enabled: true, amount: 0.6 },
        letters: { enabled: true, rotation: 3, scale: 0.05, baseline: 0, spacing: 0 },
        paper: { enabled: false },
        ink: { enabled: false },
      },
    },
    b.char,
  );
  const list = laidOut(spec, hand);
  const glyphs = list.pages[0]!.items.filter((i) => i.kind === 'glyph');
  const base = glyphs[0]!.m[5];
  // The drawing's extent along x, in pt: from its path's points under each instance's matrix.
  let [left, right] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const g of glyphs) {
    const nums = (list.glyphs[g.ref]!.path.match(/-?\d*\.?\d+/g) ?? []).map(Number);
    for (let i = 0; i + 1 < nums.length; i += 2) {
      const x = g.m[0] * nums[i]! + g.m[2] * nums[i + 1]! + g.m[4];
      [left, right] = [Math.min(left, x), Math.max(right, x)];
    }
  }
  const px = SCAN_PX_PER_MM / PT_PER_MM;
  const ox = (b.x + b.width / 2) * SCAN_PX_PER_MM - ((left + right) / 2) * px;
  const oy = (b.y + b.baseline) * SCAN_PX_PER_MM - base * px;
  return glyphs
    .map((g) => {
      const m = g.m.map((v, i) => v * px + (i === 4 ? ox : i === 5 ? oy : 0));
      return `<path transform="matrix(${m.join(' ')})" d="${list.glyphs[g.ref]!.path}"/>`;
    })
    .join('');
}

/** The hand's x-height (its x's top) for each pt of its size. */
export function xHeightPerPt(hand: FontSource): number {
  const spec = textSpec({ fontId: hand.id, modifiers: { shapes: { enabled: false } } }, 'x');
  const list = laidOut(spec, hand);
  const g = list.pages[0]!.items.find((i) => i.kind === 'glyph')!;
  const def = list.glyphs[g.ref]!;
  const ys = (def.path.match(/-?\d*\.?\d+/g) ?? []).map(Number).filter((_, i) => i % 2 === 1);
  return (Math.max(...ys) * def.scale) / spec.style.fontSize;
}

/**
 * A sheet page with every box (but those in `skip`, by `a/2`) written in `hand`, in dark blue ink,
 * as grey pixels; and the page of the hand's drawings alone.
 */
export function filledPage(
  blank: GrayImage,
  layout: SheetLayout,
  page: number,
  hand: FontSource,
  opts: { skip?: string[] } = {},
): GrayImage {
  const boxes = layout.boxes.filter((b) => b.page === page && !opts.skip?.includes(`${b.char}/${b.variant}`));
  const perPt = xHeightPerPt(hand);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${blank.width}" height="${blank.height}"><g fill="#0d1450">${boxes
    .map((b) => drawnBox(hand, b, perPt))
    .join('')}</g></svg>`;
  const ink = new Resvg(svg, { font: { loadSystemFonts: false }, background: 'white' }).render().pixels;
  const data = new Uint8Array(blank.data.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.min(blank.data[i]!, ink[i * 4 + 1]!);
  return { width: blank.width, height: blank.height, data };
}

/** OpenCV, ready (its module is a thenable, so it is never what a promise resolves with). */
async function opencv() {
  const cv = cvModule as unknown as typeof cvModule & { onRuntimeInitialized?: () => void };
  if (!cv.Mat) await new Promise<void>((r) => (cv.onRuntimeInitialized = r));
  return { cv };
}

/**
 * The page as a phone photographs it: on a table, turned 3°, in perspective, lit from one side,
 * noisy, as a JPEG of quality 75 (its bytes and size).
 */
async function photograph(page: GrayImage): Promise<{ jpeg: Uint8Array; width: number; height: number }> {
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
      const i = (y * W + x) * 4;
      rgba[i] = rgba[i + 1] = rgba[i + 2] = v;
      rgba[i + 3] = 255;
    }
  const jpg = jpeg.encode({ data: rgba, width: W, height: Hh }, 75).data;
  return { jpeg: new Uint8Array(jpg), width: W, height: Hh };
}

/** The page photographed (photograph): the JPEG's bytes, and the grey pixels they decode to. */
export async function photographed(page: GrayImage): Promise<{ jpeg: Uint8Array; image: GrayImage }> {
  const { jpeg: bytes, width, height } = await photograph(page);
  const decoded = jpeg.decode(bytes, { useTArray: true });
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = decoded.data[i * 4]!;
  return { jpeg: bytes, image: { width, height, data: gray } };
}

/** Ink (below 140) of a region of a grey image, cropped to its ink and scaled to 32 x 32. */
export function normalised(
  img: GrayImage,
  rect?: { x: number; y: number; w: number; h: number },
): Uint8Array {
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

/** Shared ink over all ink of two normalised drawings (intersection over union). */
export function overlap(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i]! & b[i]!;
    either += a[i]! | b[i]!;
  }
  return either ? both / either : 0;
}
