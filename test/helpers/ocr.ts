// Reading a written page back with OCR (Debian's tesseract-ocr, English): the letter the tests
// write, its lines cut out in bands, and the character error rate of what the OCR read.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';

const run = promisify(execFile);

export const LETTER =
  'Dear Margaret, thank you so much for the lovely afternoon tea last Sunday. The garden looked ' +
  'wonderful, and the roses by the gate were in full bloom. We hope to see you again before the ' +
  'summer ends, perhaps at the river.';

/** Levenshtein distance over characters. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

export const words = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The page's lines, each cut out in a band from an ascender's height above its baseline to a
 * descender's depth below it (an em either side of the writing), set one under the other with a
 * blank between: the OCR's page segmentation, not the writing, otherwise decides whether a line
 * of a flowing script is read at all (read whole, the page of Dancing Script set plainly loses two
 * lines, and the scanner's shaded edges read as letters). Ink of the line above that reaches into
 * a band is left out of it (strayInk). A PPM (P6: the page's RGB, unpacked), which tesseract reads
 * as it would the PNG: encoding a PNG of a 300 DPI page took as long as the OCR.
 */
export function inBands(
  png: Uint8Array,
  lines: { x: number; y: number; width: number; size: number }[],
  dpi: number,
): Buffer {
  const page = pixels(png);
  const px = dpi / 72;
  const pad = Math.max(...lines.map((l) => l.size));
  const left = Math.max(0, Math.round((Math.min(...lines.map((l) => l.x)) - pad) * px));
  const right = Math.min(page.width, Math.round((Math.max(...lines.map((l) => l.x + l.width)) + pad) * px));
  const bands = lines.map((l) => {
    const top = Math.max(0, Math.round((l.y - 1.1 * l.size) * px));
    const bottom = Math.min(page.height, Math.round((l.y + 0.45 * l.size) * px));
    return { top, height: bottom - top };
  });
  const gap = Math.round(0.6 * pad * px);
  const width = right - left;
  const height = bands.reduce((h, b) => h + b.height + gap, gap);
  // The PPM's header, then its pixels, in one buffer (not copied again to be joined).
  const header = Buffer.from(`P6\n${width} ${height}\n255\n`, 'ascii');
  const ppm = Buffer.alloc(header.length + 3 * width * height, 255);
  header.copy(ppm);
  const out = { width, data: ppm.subarray(header.length) };
  let y = gap;
  for (const b of bands) {
    const step = page.step;
    for (let row = 0; row < b.height; row++) {
      const from = page.row(b.top + row) + left * step;
      const to = 3 * (y + row) * width;
      for (let x = 0; x < width; x++) {
        out.data[to + 3 * x] = page.data[from + step * x]!;
        out.data[to + 3 * x + 1] = page.data[from + step * x + 1]!;
        out.data[to + 3 * x + 2] = page.data[from + step * x + 2]!;
      }
    }
    strayInk(out, y, b.height);
    y += b.height + gap;
  }
  return ppm;
}

/**
 * A PNG's pixels: where row y starts in `data` and the bytes a pixel takes (RGB or RGBA, in that
 * order). The engine's pages (8-bit RGB, filter 0 on every row) are read straight from the
 * inflated stream; anything else is decoded by pngjs.
 */
function pixels(png: Uint8Array): {
  width: number;
  height: number;
  data: Uint8Array;
  step: number;
  row(y: number): number;
} {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const [depth, colour, interlace] = [png[24], png[25], png[28]];
  if (depth === 8 && colour === 2 && interlace === 0) {
    const idat: Uint8Array[] = [];
    for (let at = 8; at < png.length; ) {
      const length = view.getUint32(at);
      const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
      if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
      at += 12 + length;
    }
    const data = inflateSync(idat.length === 1 ? idat[0]! : Buffer.concat(idat));
    const line = 3 * width + 1;
    let filtered = false;
    for (let y = 0; y < height; y++) if (data[y * line] !== 0) filtered = true;
    if (!filtered) return { width, height, data, step: 3, row: (y) => y * line + 1 };
  }
  const page = PNG.sync.read(Buffer.from(png));
  return { width, height, data: page.data, step: 4, row: (y) => y * width * 4 };
}

/**
 * Whitens, in the band of `height` rows from row `top`, every piece of ink that crosses its top
 * edge: a descender of the line above, which is not this line's (no letter of the line reaches
 * 1.1 em over its baseline in a hand the OCR can read).
 */
function strayInk(image: { width: number; data: Uint8Array }, top: number, height: number): void {
  const { width, data } = image;
  const ink = (x: number, y: number) => {
    const i = 3 * (y * width + x);
    return data[i]! + data[i + 1]! + data[i + 2]! < 3 * 200;
  };
  const stack: number[] = [];
  for (let x = 0; x < width; x++) if (ink(x, top)) stack.push(x, top);
  while (stack.length) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x < 0 || x >= width || y < top || y >= top + height || !ink(x, y)) continue;
    const i = 3 * (y * width + x);
    data[i] = data[i + 1] = data[i + 2] = 255;
    stack.push(x + 1, y, x - 1, y, x, y + 1, x, y - 1);
  }
}

/** A written page to read: its PNG at the DPI read, its lines, and where its bands go (a PPM). */
export interface PageToRead {
  png: Uint8Array;
  lines: { x: number; y: number; width: number; size: number }[];
  file: string;
}

/**
 * The character error rate of the OCR's reading of a page (a PNG at `dpi`, its lines in bands,
 * written to `file` as a PGM) against `text`; null where tesseract is not installed outside CI.
 */
export async function ocrErrorRate(
  png: Uint8Array,
  lines: { x: number; y: number; width: number; size: number }[],
  o: { dpi: number; file: string; text: string },
): Promise<number | null> {
  const rates = await ocrErrorRates([{ png, lines, file: o.file }], o);
  return rates && rates[0]!;
}

/**
 * The character error rates of pages read in one run of the OCR (a list of their PPMs: it loads
 * its model once, about a fifth of a page's reading time; each page is read on its own, the
 * pages' texts parted by a form feed); null where tesseract is not installed outside CI.
 */
export async function ocrErrorRates(
  pages: readonly PageToRead[],
  o: { dpi: number; text: string },
): Promise<number[] | null> {
  for (const page of pages) writeFileSync(page.file, inBands(page.png, page.lines, o.dpi));
  const list = `${pages[0]!.file}.list`;
  writeFileSync(list, `${pages.map((p) => p.file).join('\n')}\n`);
  try {
    // One thread: tesseract's OpenMP threads spin while they wait, three times the CPU of a page
    // read on one (1.05 s against 0.36 s at 300 DPI here), taken from the tests running beside it.
    const { stdout } = await run('tesseract', [list, '-', '--psm', '6', '-l', 'eng'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const read = stdout.split('\f');
    if (read.length < pages.length) throw new Error(`the OCR read ${read.length} pages of ${pages.length}`);
    const expected = words(o.text);
    return pages.map((_, i) => distance(words(read[i]!), expected) / expected.length);
  } catch (err) {
    if (process.env.CI || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return null;
  }
}
