// Reading a filled sample sheet from a scan or a phone photo (docs/sample-sheet.md): the light is
// evened out, the four corner marks found, the page's angle and perspective undone by the
// homography from the marks to where the layout put them (upright, upside down or turned a
// quarter, whichever makes the page's code read), the page's code read from its cells,
// and each box's ink cut out on its own, guides and specks dropped, in the page's millimetres.
// OpenCV (its WebAssembly build) does the image work; it loads once per thread, on first use.
import type CV from '@techstark/opencv-js';
import {
  readSheetCode,
  SHEET_GEOMETRY,
  SHEET_PAPERS,
  SHEET_SETS,
  type SheetCode,
  type SheetLayout,
  type SheetPaper,
  sheetLayout,
} from './sheet.ts';

/** Grey pixels, row by row: 0 black, 255 white. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** One box's ink as read: 0 ink, 255 paper, at `SCAN_PX_PER_MM`, the box's writing room only. */
export interface ScannedBox {
  char: string;
  variant: number;
  /** The room's top-left corner on the page, in mm (under the label strip). */
  x: number;
  y: number;
  ink: GrayImage;
  /** Pixels of ink, after specks are dropped. */
  inkPixels: number;
}

export interface SheetScan {
  code: SheetCode;
  layout: SheetLayout;
  boxes: ScannedBox[];
}

/** Why a picture is not a readable sheet page. */
export class SheetScanError extends Error {
  override name = 'SheetScanError';
  constructor(
    readonly reason: 'no-marks' | 'no-code',
    message: string,
  ) {
    super(message);
  }
}

/** The page is read at this scale: 8 px a mm, about 200 dpi. */
export const SCAN_PX_PER_MM = 8;
/** Darker than this (of 255, once the light is evened out) is ink; the guides and frames are lighter. */
const INK_LEVEL = 140;
/** Ink smaller than this (mm²) is a speck: a pen's smallest dot (the dot of a j in a small hand) is larger. */
const SPECK_MM2 = 0.05;
/** A box's writing room: inside its frame by this much (mm). */
const FRAME_INSET = 0.8;

// The module is a thenable (Emscripten's `then`): a promise resolved with it never settles, so it
// travels wrapped.
let loading: Promise<{ cv: typeof CV }> | undefined;
function opencv(): Promise<{ cv: typeof CV }> {
  loading ??= (async () => {
    const mod = (await import('@techstark/opencv-js')) as unknown as { default?: unknown };
    const cv = (mod.default ?? mod) as typeof CV & { onRuntimeInitialized?: () => void };
    if (!cv.Mat) await new Promise<void>((resolve) => (cv.onRuntimeInitialized = resolve));
    return { cv };
  })();
  return loading;
}

/** Runs `work` with a list of Mats to free, freed whatever happens. */
function using<T>(work: (keep: <M extends { delete(): void }>(m: M) => M) => T): T {
  const mats: { delete(): void }[] = [];
  try {
    return work((m) => {
      mats.push(m);
      return m;
    });
  } finally {
    for (const m of mats) m.delete();
  }
}

/** The picture with its light evened out: each pixel over the paper's own brightness around it. */
function evenLight(cv: typeof CV, gray: CV.Mat, keep: <M extends { delete(): void }>(m: M) => M): CV.Mat {
  const scale = 4;
  const small = keep(new cv.Mat());
  cv.resize(
    gray,
    small,
    new cv.Size(Math.max(1, Math.round(gray.cols / scale)), Math.max(1, Math.round(gray.rows / scale))),
    0,
    0,
    cv.INTER_AREA,
  );
  // The paper without the ink: a closing wider than any stroke or mark, then smoothed.
  const k = Math.max(9, Math.round(Math.min(small.cols, small.rows) / 30) | 1);
  const kernel = keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(k, k)));
  const paper = keep(new cv.Mat());
  cv.morphologyEx(small, paper, cv.MORPH_CLOSE, kernel);
  cv.GaussianBlur(paper, paper, new cv.Size(k, k), 0);
  const full = keep(new cv.Mat());
  cv.resize(paper, full, new cv.Size(gray.cols, gray.rows), 0, 0, cv.INTER_LINEAR);
  const even = keep(new cv.Mat());
  cv.divide(gray, full, even, 255);
  return even;
}

interface Blob {
  cx: number;
  cy: number;
  side: number;
}

/** Solid, squarish dark blobs: candidates for the corner marks. */
function squares(cv: typeof CV, even: CV.Mat, keep: <M extends { delete(): void }>(m: M) => M): Blob[] {
  const dark = keep(new cv.Mat());
  cv.threshold(even, dark, INK_LEVEL, 255, cv.THRESH_BINARY_INV);
  const contours = keep(new cv.MatVector());
  const hierarchy = keep(new cv.Mat());
  cv.findContours(dark, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  const shortSide = Math.min(even.cols, even.rows);
  const found: Blob[] = [];
  // The typings say size() is a Size; a MatVector's is its length.
  const count = contours.size() as unknown as number;
  for (let i = 0; i < count; i++) {
    const c = contours.get(i);
    try {
      const area = cv.contourArea(c);
      const side = Math.sqrt(area);
      // A mark is 7 mm of a page's 210-216 mm short side: from a page filling a third of the
      // picture to one filling all of it.
      if (side < shortSide * 0.008 || side > shortSide * 0.06) continue;
      const r = cv.minAreaRect(c);
      const [w, h] = [r.size.width, r.size.height];
      if (Math.min(w, h) / Math.max(w, h) < 0.75 || area / (w * h) < 0.82) continue;
      found.push({ cx: r.center.x, cy: r.center.y, side });
    } finally {
      c.delete();
    }
  }
  return found;
}

/** The four blobs nearest the picture's corners, top-left, top-right, bottom-left, bottom-right. */
function corners(blobs: Blob[], width: number, height: number): Blob[] | null {
  const targets = [
    [0, 0],
    [width, 0],
    [0, height],
    [width, height],
  ] as const;
  const picked = targets.map(([x, y]) => {
    let best: Blob | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const b of blobs) {
      const d = Math.hypot(b.cx - x, b.cy - y);
      if (d < bestD) [best, bestD] = [b, d];
    }
    return best;
  });
  if (picked.some((b) => !b) || new Set(picked).size < 4) return null;
  const sides = picked.map((b) => b!.side);
  if (Math.max(...sides) / Math.min(...sides) > 1.8) return null;
  return picked as Blob[];
}

/** The page read from `image` with the layout of `paper`: its code, or null when its cells say none. */
function warpPage(
  cv: typeof CV,
  even: CV.Mat,
  marks: Blob[],
  paper: SheetPaper,
  keep: <M extends { delete(): void }>(m: M) => M,
): { page: CV.Mat; code: SheetCode } | null {
  const layout = sheetLayout('basic', paper);
  const px = SCAN_PX_PER_MM;
  const to = layout.marks.flatMap((m) => [(m.x + m.size / 2) * px, (m.y + m.size / 2) * px]);
  const from = marks.flatMap((b) => [b.cx, b.cy]);
  const src = keep(cv.matFromArray(4, 1, cv.CV_32FC2, from));
  const dst = keep(cv.matFromArray(4, 1, cv.CV_32FC2, to));
  const h = keep(cv.getPerspectiveTransform(src, dst));
  // Kept only when its code reads: a page warped the wrong way round is let go at once.
  const page = new cv.Mat();
  const size = new cv.Size(Math.round(layout.paper.width * px), Math.round(layout.paper.height * px));
  cv.warpPerspective(even, page, h, size, cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(255));
  const c = layout.codeCells;
  const inset = c.size * 0.2;
  const bits = Array.from({ length: c.count }, (_, i) => {
    const rect = new cv.Rect(
      Math.round((c.x + i * c.size + inset) * px),
      Math.round((c.y + inset) * px),
      Math.round((c.size - 2 * inset) * px),
      Math.round((c.size - 2 * inset) * px),
    );
    const cell = page.roi(rect);
    try {
      return cv.mean(cell)[0]! < 128;
    } finally {
      cell.delete();
    }
  });
  const code = readSheetCode(bits);
  if (!code || code.paper !== paper) {
    page.delete();
    return null;
  }
  return { page: keep(page), code };
}

/**
 * The marks found (at the picture's top-left, top-right, bottom-left and bottom-right) in the
 * page's own order, for a page photographed upright, upside down, or turned a quarter either way.
 */
const TURNS = [
  [0, 1, 2, 3],
  [3, 2, 1, 0],
  [1, 3, 0, 2],
  [2, 0, 3, 1],
] as const;

/** A box's writing room as ink (0) on paper (255), specks dropped. */
function boxInk(
  cv: typeof CV,
  page: CV.Mat,
  x: number,
  y: number,
  w: number,
  h: number,
): { ink: GrayImage; pixels: number } {
  const px = SCAN_PX_PER_MM;
  return using((keep) => {
    const room = keep(
      page.roi(new cv.Rect(Math.round(x * px), Math.round(y * px), Math.round(w * px), Math.round(h * px))),
    );
    const ink = keep(new cv.Mat());
    cv.threshold(room, ink, INK_LEVEL, 255, cv.THRESH_BINARY_INV);
    const labels = keep(new cv.Mat());
    const stats = keep(new cv.Mat());
    const centroids = keep(new cv.Mat());
    const n = cv.connectedComponentsWithStats(ink, labels, stats, centroids, 8, cv.CV_32S);
    const speck = SPECK_MM2 * px * px;
    const keepLabel = new Uint8Array(n);
    for (let i = 1; i < n; i++)
      keepLabel[i] = stats.data32S[i * stats.cols + cv.CC_STAT_AREA]! >= speck ? 1 : 0;
    const out = new Uint8Array(ink.cols * ink.rows).fill(255);
    const lab = labels.data32S;
    let pixels = 0;
    for (let i = 0; i < out.length; i++)
      if (keepLabel[lab[i]!]) {
        out[i] = 0;
        pixels++;
      }
    return { ink: { width: ink.cols, height: ink.rows, data: out }, pixels };
  });
}

/**
 * The sheet page in a picture: its code (which layout, set and page) and each of its boxes' ink.
 * Throws a SheetScanError when the picture shows no sheet page (no four marks, no code).
 */
export async function readSheetScan(image: GrayImage): Promise<SheetScan> {
  const { cv } = await opencv();
  return using((keep) => {
    const gray = keep(cv.matFromArray(image.height, image.width, cv.CV_8UC1, image.data));
    const even = evenLight(cv, gray, keep);
    const marks = corners(squares(cv, even, keep), image.width, image.height);
    if (!marks)
      throw new SheetScanError(
        'no-marks',
        'the four black corner squares of a sample sheet were not found: photograph the whole page, corners included',
      );
    let read: { page: CV.Mat; code: SheetCode } | null = null;
    turns: for (const turn of TURNS)
      for (const paper of Object.keys(SHEET_PAPERS) as SheetPaper[]) {
        read = warpPage(
          cv,
          even,
          turn.map((i) => marks[i]!),
          paper,
          keep,
        );
        if (read) break turns;
      }
    if (!read)
      throw new SheetScanError(
        'no-code',
        "the page's code could not be read, upright, upside down or turned a quarter: is it a page of this service's sample sheet?",
      );
    const { code } = read;
    const layout = sheetLayout(code.set, code.paper);
    if (!(code.set in SHEET_SETS) || layout.pages !== code.pages)
      throw new SheetScanError(
        'no-code',
        `the page's code names a layout this service does not have (${code.set}, ${code.pages} pages)`,
      );
    const label = SHEET_GEOMETRY.box.label;
    const boxes = layout.boxes
      .filter((b) => b.page === code.page)
      .map((b) => {
        const x = b.x + FRAME_INSET;
        const y = b.y + label;
        const { ink, pixels } = boxInk(
          cv,
          read.page,
          x,
          y,
          b.width - 2 * FRAME_INSET,
          b.height - label - FRAME_INSET,
        );
        return { char: b.char, variant: b.variant, x, y, ink, inkPixels: pixels };
      });
    return { code, layout, boxes };
  });
}
